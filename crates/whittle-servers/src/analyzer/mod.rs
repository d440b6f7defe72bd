//! The `analyzer` role: crash signatures, grouping a session's crashes, and a
//! static minimal-path guess. Signatures themselves live in `whittle_core::signature`.
mod error;
mod session_dir;
mod suggest;
mod tools;

use whittle_contract::analyzer::{SessionAnalysis, StaticSuggestion};
use whittle_core::session::{load_session, Session};
use whittle_core::signature::group_crashes;

pub use error::AnalyzerError;

fn load(session_dir: &str) -> Result<Session, AnalyzerError> {
    let dir = session_dir::checked_session_dir(session_dir)?;
    load_session(&dir).map_err(|source| AnalyzerError::Session { dir, source })
}

/// Groups the crashes of the session folder at `session_dir` by signature.
pub fn analyze_session(session_dir: &str) -> Result<SessionAnalysis, AnalyzerError> {
    let session = load(session_dir)?;
    let groups = group_crashes(&session.crashes);
    Ok(SessionAnalysis {
        unique: u32::try_from(groups.len()).unwrap_or(u32::MAX),
        groups,
    })
}

/// The static, low-confidence path suggestion for one crash of the session.
pub fn suggest_minimal_path(
    session_dir: &str,
    crash_id: &str,
) -> Result<StaticSuggestion, AnalyzerError> {
    let session = load(session_dir)?;
    let crash = session
        .crash(crash_id)
        .ok_or_else(|| AnalyzerError::UnknownCrash {
            dir: session.dir.clone(),
            crash_id: crash_id.to_string(),
        })?;
    Ok(suggest::suggest(&session, crash))
}
