//! What every capture's start checks before capturing, and the log file it appends to:
//! `<session_dir>/logcat.txt`, opened by the server where its client may have it
//! written (`allowed_folders`). Backends differ in what feeds the file (`capture`), not
//! in how a request is validated or the file is opened.
use std::fs::File;
use std::path::PathBuf;

pub const LOG_FILE: &str = "logcat.txt";

#[derive(Debug, thiserror::Error)]
pub enum CaptureLogError {
    #[error("session_id must not be empty")]
    EmptySessionId,
    #[error("a capture for session {0:?} is already running")]
    AlreadyRunning(String),
    /// Another MCP session of this lab host started it (`capture`): it is not this
    /// session's to start again, stop or read.
    #[error("the capture for session {0:?} belongs to another MCP session of this host")]
    NotYours(String),
    #[error("cannot open {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A capture's log file, opened for appending.
#[derive(Debug)]
pub struct OpenedLog {
    pub path: PathBuf,
    pub file: File,
}

/// A capture needs a session id to be listed and stopped by.
pub fn check_session_id(session_id: &str) -> Result<(), CaptureLogError> {
    if session_id.trim().is_empty() {
        return Err(CaptureLogError::EmptySessionId);
    }
    Ok(())
}
