//! "Show in folder" for files the app wrote: the OS file manager opens on the folder.
//! An argument vector, never a shell; only paths the app itself produced.

use std::path::Path;
use std::process::Command;

use crate::error::AppError;
use crate::error_cause::RevealCause;
use crate::runs::WindowRuns;

pub fn reveal(runs: &WindowRuns, path: &str) -> Result<(), AppError> {
    let failed = |cause| AppError::RevealFailed {
        path: path.to_owned(),
        cause,
    };
    let target = Path::new(path);
    if !runs.may_reveal(target) {
        return Err(failed(RevealCause::NotAllowed));
    }
    let folder = if target.is_dir() {
        target
    } else {
        target.parent().unwrap_or(target)
    };
    open_folder(folder).map_err(|e| {
        failed(RevealCause::NotOpened {
            detail: e.0.to_string(),
        })
    })
}

/// The OS file manager could not be started.
#[derive(Debug, thiserror::Error)]
#[error("the file manager could not be opened: {0}")]
pub struct FileManagerError(#[from] pub std::io::Error);

/// Opens `folder` in the OS file manager.
pub fn open_folder(folder: &Path) -> Result<(), FileManagerError> {
    let mut command = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        Command::new("explorer")
    } else {
        Command::new("xdg-open")
    };
    command
        .arg(folder)
        .spawn()
        .map(drop)
        .map_err(FileManagerError)
}
