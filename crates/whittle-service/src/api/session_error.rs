//! Why a session (or the workspace holding it) cannot be shown: the typed cause, which
//! each front end words in its own way.

use std::path::PathBuf;

use whittle_core::session::{ResolveError, SessionError, SessionIdError};
use whittle_core::workspace::WorkspaceError;

#[derive(Debug, thiserror::Error)]
pub enum SessionReadError {
    #[error("the workspace folder {} cannot be read: {source}", .workspace.display())]
    Workspace {
        workspace: PathBuf,
        #[source]
        source: WorkspaceError,
    },
    /// A front end names sessions by id only: a path is refused before anything is read.
    #[error("“{id}” is not a valid session id: {source}")]
    InvalidId {
        id: String,
        #[source]
        source: SessionIdError,
    },
    #[error("session {id} cannot be found: {source}")]
    NotFound {
        id: String,
        #[source]
        source: ResolveError,
    },
    #[error("session {id} cannot be read: {source}")]
    Unreadable {
        id: String,
        #[source]
        source: SessionError,
    },
}

impl SessionReadError {
    /// The session the error is about, when it is about one.
    pub fn session_id(&self) -> Option<&str> {
        match self {
            SessionReadError::Workspace { .. } => None,
            SessionReadError::InvalidId { id, .. }
            | SessionReadError::NotFound { id, .. }
            | SessionReadError::Unreadable { id, .. } => Some(id),
        }
    }
}

/// `id`, checked to be a plain session id (never a path, absolute or not).
pub(crate) fn valid_id(id: &str) -> Result<(), SessionReadError> {
    whittle_core::session::validate_session_id(id).map_err(|source| SessionReadError::InvalidId {
        id: id.to_owned(),
        source,
    })
}
