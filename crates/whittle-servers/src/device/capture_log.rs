//! What every capture's start checks before capturing, and the log file it appends to:
//! `<session_dir>/logcat.txt`. Backends differ in what feeds the file (`capture`), not in
//! how a request is validated or the file is opened.
use std::fs::File;
use std::path::{Path, PathBuf};

pub const LOG_FILE: &str = "logcat.txt";

#[derive(Debug, thiserror::Error)]
pub enum CaptureLogError {
    #[error("session_id must not be empty")]
    EmptySessionId,
    #[error("session_dir {0:?} must be an absolute path to an existing folder")]
    BadDir(String),
    #[error("a capture for session {0:?} is already running")]
    AlreadyRunning(String),
    #[error("cannot open {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A non-empty session id and an absolute, existing session folder.
pub fn check_request<'a>(
    session_id: &str,
    session_dir: &'a str,
) -> Result<&'a Path, CaptureLogError> {
    if session_id.trim().is_empty() {
        return Err(CaptureLogError::EmptySessionId);
    }
    let dir = Path::new(session_dir);
    if !dir.is_absolute() || !dir.is_dir() {
        return Err(CaptureLogError::BadDir(session_dir.to_string()));
    }
    Ok(dir)
}

/// Opens (creating if needed) the session's log file for appending.
pub fn open_log(dir: &Path) -> Result<(PathBuf, File), CaptureLogError> {
    let path = dir.join(LOG_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|source| CaptureLogError::Open {
            path: path.clone(),
            source,
        })?;
    Ok((path, file))
}
