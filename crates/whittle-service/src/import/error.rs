use std::path::PathBuf;

use whittle_core::import::ImportError;

/// Why a flow was not imported. Nothing was written in any of these cases.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Parse(#[from] ImportError),
    #[error(
        "session name {0:?} must be one name of letters, digits, '.', '_' and '-' (it names a \
         folder inside the workspace, never a path)"
    )]
    BadName(String),
    #[error(
        "{file} does not name the app (Robo scripts never do): give its package with --package"
    )]
    NoPackage { file: String },
    #[error("{process} is a process of {package}, not an app: pass --package {package}")]
    ProcessNotPackage { process: String, package: String },
    #[error("{file} is for {in_file}, but --package says {given}")]
    PackageConflict {
        file: String,
        in_file: String,
        given: String,
    },
    #[error("{} is not a Whittle workspace (it has no sessions folder)", .0.display())]
    NoWorkspace(PathBuf),
    #[error("cannot write the session into {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Why `record` did not write crashes. The session itself is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    #[error(
        "session {0} already has crashes.jsonl; Whittle never rewrites it (import the flow \
         again to record a new run)"
    )]
    AlreadyRecorded(String),
    #[error("session {0} does not name its app's package")]
    NoPackage(String),
    #[error("{package} is not installed as a user app on {device}")]
    NotInstalled { package: String, device: String },
    #[error("the log capture is not running ({0}); nothing was recorded")]
    Capture(String),
    #[error("the replay failed ({}); nothing was recorded", whittle_text::failure_text(.0))]
    Replay(whittle_core::engine::FailureCause),
    #[error("cancelled before the replay ended; nothing was recorded")]
    Cancelled,
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Result(#[from] crate::result::ResultFileError),
}
