//! Opening a file of a session folder without following a symbolic link out of it: a
//! session comes from elsewhere, and `steps.jsonl -> ~/.ssh/id_rsa` must not make
//! Whittle read (and quote in an error) a file the session does not own.

use std::fs::File;
use std::io;
use std::path::Path;

use super::error::{SessionError, SessionProblem};

/// `Ok(None)` when the file does not exist. A symlink is followed only when its target
/// resolves inside the session folder.
pub(crate) fn open_session_file(dir: &Path, name: &str) -> Result<Option<File>, SessionError> {
    let path = dir.join(name);
    let err = |problem| SessionError::in_file(name, problem);
    let unreadable = |source: std::io::Error| {
        err(SessionProblem::Unreadable {
            detail: source.to_string(),
        })
    };
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = path.canonicalize();
            let folder = dir.canonicalize().map_err(unreadable)?;
            match target {
                Ok(target) if target.starts_with(&folder) => {}
                // A dangling link reads as a missing file would, but is named for what it is.
                _ => return Err(err(SessionProblem::SymlinkOutside)),
            }
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(unreadable(source)),
    }
    match File::open(&path) {
        Ok(file) => Ok(Some(file)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(unreadable(source)),
    }
}
