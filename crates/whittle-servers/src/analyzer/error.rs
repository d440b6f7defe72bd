use std::path::PathBuf;

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
