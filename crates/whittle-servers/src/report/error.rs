use std::io;
use std::path::PathBuf;

use thiserror::Error;
use whittle_core::session::{ResolveError, SessionIdError};

/// Why a `report` tool call failed, phrased for the client that made it.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error("invalid session id {id:?}: {source}")]
    InvalidId {
        id: String,
        #[source]
        source: SessionIdError,
    },
    #[error("session {id:?}: {source}")]
    Resolve {
        id: String,
        #[source]
        source: ResolveError,
    },
    #[error("result must be \"ok\" or \"fail\" (got {0:?})")]
    InvalidResult(String),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} line {line}: {problem}", .path.display())]
    CorruptLine {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    #[error("{}: not a valid meta.json ({problem})", .path.display())]
    CorruptMeta { path: PathBuf, problem: String },
    #[error("could not find a free session id for {base:?}")]
    NoFreeId { base: String },
}

impl ReportError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> ReportError {
        let path = path.into();
        move |source| ReportError::Io { path, source }
    }
}
