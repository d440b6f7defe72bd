//! Why a session (or the workspace holding it) cannot be shown: the typed cause, which
//! each front end words in its own way.

use std::path::{Path, PathBuf};

use whittle_core::session::{resolve_session_dir, ResolveError, SessionError, SessionIdError};
use whittle_core::workspace::WorkspaceError;

use crate::run::{read_recorded_run, RecordedRun, RecordedRunError};

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
    /// The stable code a front end switches on and a catalogue words.
    pub fn code(&self) -> &'static str {
        match self {
            SessionReadError::Workspace { .. } => "workspace_unreadable",
            SessionReadError::InvalidId { .. } => "invalid_session_id",
            SessionReadError::NotFound { .. } => "session_not_found",
            SessionReadError::Unreadable { .. } => "session_unreadable",
        }
    }

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

/// The folder of session `id` — a plain id, never a path — inside `workspace`.
pub(crate) fn session_dir(workspace: &Path, id: &str) -> Result<PathBuf, SessionReadError> {
    valid_id(id)?;
    found_dir(workspace, id)
}

/// The folder `id_or_dir` (an id, or a folder inside `workspace`) names.
pub(crate) fn found_dir(workspace: &Path, id_or_dir: &str) -> Result<PathBuf, SessionReadError> {
    resolve_session_dir(workspace, id_or_dir).map_err(|source| SessionReadError::NotFound {
        id: id_or_dir.to_owned(),
        source,
    })
}

/// An evidence session whose recorded run cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("evidence session {evidence} cannot be read: {source}")]
pub struct UnreadableEvidence {
    pub evidence: String,
    #[source]
    pub source: RecordedRunError,
}

impl UnreadableEvidence {
    pub fn code(&self) -> &'static str {
        "evidence_unreadable"
    }
}

/// The run recorded in `dir`, the folder of evidence session `evidence`.
pub(crate) fn read_run(dir: &Path, evidence: &str) -> Result<RecordedRun, UnreadableEvidence> {
    read_recorded_run(dir).map_err(|source| UnreadableEvidence {
        evidence: evidence.to_owned(),
        source,
    })
}
