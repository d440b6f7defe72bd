//! The folder of a session or evidence session an agent names by id: every id is
//! validated as a session id (a plain folder name) before a path is built from it, and
//! one that names nothing is refused naming the tool that lists the ids, never with the
//! workspace's paths.

use std::path::PathBuf;

use whittle_core::session::{resolve_session_dir, validate_session_id, ResolveError};
use whittle_service::api::Config;

use super::failure::ToolFailure;
use crate::exit::Exit;

/// Which tool lists the ids of what an id names.
#[derive(Clone, Copy)]
pub(crate) enum Listed {
    /// A session of the workspace: `sessions`.
    Session,
    /// A minimize run's evidence session: `past_runs` (and `sessions`).
    Evidence,
}

/// The folder of a session or evidence session the caller named by id. A refusal says
/// what to call to list the ids, and never names the workspace's paths.
pub(crate) fn resolve(config: &Config, id: &str, listed: Listed) -> Result<PathBuf, ToolFailure> {
    valid_id(id)?;
    let (what, list) = match listed {
        Listed::Session => ("session", "call `sessions` to list them"),
        Listed::Evidence => (
            "evidence session",
            "call `past_runs` with the session it minimized (or `sessions`) to list them",
        ),
    };
    resolve_session_dir(&config.workspace, id).map_err(|e| {
        let error = match e {
            ResolveError::NotFound { .. } => format!("no {what} {id:?} in the workspace: {list}"),
            ResolveError::NoSessionsFolder { .. } => {
                format!("no {what} {id:?}: the workspace has no sessions folder yet")
            }
            ResolveError::OutsideWorkspace { .. } => {
                format!("{what} {id:?} is not a folder of the workspace's sessions: {list}")
            }
            ResolveError::Io { source, .. } => format!("cannot open {what} {id:?}: {source}"),
            ResolveError::InvalidId(reason) => format!("{what} id {id:?}: {reason}"),
            ResolveError::RelativePath => format!("{what} id {id:?}: not a plain folder name"),
        };
        ToolFailure::new(Exit::Refused, error)
    })
}

pub(crate) fn valid_id(id: &str) -> Result<(), ToolFailure> {
    validate_session_id(id)
        .map_err(|reason| ToolFailure::new(Exit::Refused, format!("session id {id:?}: {reason}")))
}
