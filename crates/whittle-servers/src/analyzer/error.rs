use std::path::PathBuf;

use rmcp::model::{ContentBlock, IntoContents};
use thiserror::Error;
use whittle_core::session::SessionError;

/// Why an `analyzer` tool call failed.
#[derive(Debug, Error)]
pub enum AnalyzerError {
    #[error("session_dir must be an absolute path without `..` (got {0:?})")]
    BadSessionDir(String),
    #[error("session folder {}: {source}", .dir.display())]
    Session {
        dir: PathBuf,
        #[source]
        source: SessionError,
    },
    #[error("no crash {crash_id:?} in {}", .dir.display())]
    UnknownCrash { dir: PathBuf, crash_id: String },
}

/// A failed analyzer tool answers `isError: true` with this message as its one text block.
impl IntoContents for AnalyzerError {
    fn into_contents(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self.to_string())]
    }
}
