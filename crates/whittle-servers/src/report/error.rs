use std::io;
use std::path::PathBuf;

use rmcp::model::{ContentBlock, IntoContents};
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
    /// A report tool was routed to a server built without a store (`analyzer` alone).
    #[error("this server was started without a workspace")]
    NoWorkspace,
}

/// A failed report tool answers `isError: true` with this message as its one text block.
impl IntoContents for ReportError {
    fn into_contents(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self.to_string())]
    }
}

impl ReportError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> ReportError {
        let path = path.into();
        move |source| ReportError::Io { path, source }
    }
}
