//! The workspace's sessions as every front end lists them — the window's session
//! browser, `whittle sessions` and `whittle mcp`'s `sessions` tool — built on [`sessions`]
//! (which sessions: a run's evidence is listed under the session it minimized), with each
//! session's crashes and its minimize runs as [`past_runs`] reads them, so the three show
//! the same sessions and the same runs (`crates/whittle-cli/tests/cli/one_listing_cli.rs`
//! compares them on the demo).

use std::path::Path;

use whittle_core::model::Crash;
use whittle_core::session::{load_session, resolve_session_dir};
use whittle_core::workspace::SessionSummary;

use super::session_detail::sessions;
use super::session_error::SessionReadError;
use crate::run::{listed_run, newest_first, past_runs, PastRun};

/// One session of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedSession {
    pub summary: SessionSummary,
    /// Its crashes as recorded; none when the session cannot be read (`summary.problem`).
    pub crashes: Vec<Crash>,
    /// Its minimize runs, newest first: those of its crashes for a recorded session; its
    /// own for a run's evidence whose session is gone.
    pub runs: Vec<PastRun>,
}

/// The listing, in [`sessions`]' order.
pub fn listed_sessions(workspace: &Path) -> Result<Vec<ListedSession>, SessionReadError> {
    Ok(sessions(workspace)?
        .into_iter()
        .map(|summary| listed(workspace, summary))
        .collect())
}

fn listed(workspace: &Path, summary: SessionSummary) -> ListedSession {
    if summary.evidence_of.is_some() {
        let runs = listed_run(workspace, &summary).into_iter().collect();
        return ListedSession {
            summary,
            crashes: Vec::new(),
            runs,
        };
    }
    let crashes = match &summary.problem {
        Some(_) => Vec::new(),
        None => resolve_session_dir(workspace, &summary.session_id)
            .ok()
            .and_then(|dir| load_session(&dir).ok())
            .map(|session| session.crashes)
            .unwrap_or_default(),
    };
    let mut runs: Vec<PastRun> = past_runs(workspace, &summary.session_id, &crashes)
        .into_values()
        .flatten()
        .collect();
    runs.sort_by(newest_first);
    ListedSession {
        summary,
        crashes,
        runs,
    }
}
