//! A session named on the command line (its id, or an absolute session folder inside the
//! workspace), read: refused as `minimize` refuses it — `session_not_found` when it names
//! nothing, `session_unusable` when it cannot be read — so `analyze` and `runs` answer
//! `--json` with the same typed cause.

use whittle_core::session::{load_session, resolve_session_dir, Session};
use whittle_service::api::Config;
use whittle_service::api::RunRefusal;

use crate::exit::Exit;
use crate::json_answer;
use crate::mcp::ToolFailure;

/// A session read from the workspace, with the folder name that is its identity (as
/// evidence names it; meta's own id is untrusted).
pub struct NamedSession {
    pub id: String,
    pub session: Session,
}

pub fn read(config: &Config, session: &str) -> Result<NamedSession, ToolFailure> {
    let dir = resolve_session_dir(&config.workspace, session).map_err(|e| {
        let detail = e.to_string();
        ToolFailure::refused(
            RunRefusal::SessionNotFound {
                detail: detail.clone(),
            },
            detail,
        )
    })?;
    let loaded = load_session(&dir).map_err(|e| {
        let detail = e.to_string();
        ToolFailure::refused(
            RunRefusal::SessionUnusable {
                detail: detail.clone(),
            },
            detail,
        )
    })?;
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(NamedSession {
        id,
        session: loaded,
    })
}

/// [`read`], a refusal told as the command tells one: the `--json` object, or the
/// sentence on stderr; `Err` carries the exit code.
pub fn read_or_refuse(config: &Config, session: &str, json: bool) -> Result<NamedSession, Exit> {
    read(config, session).map_err(|failure| {
        if json {
            return json_answer::failure(&failure);
        }
        eprintln!("error: {}", failure.error);
        Exit::of_number(failure.exit)
    })
}
