use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("bundle name {0:?} must be one component of A-Z a-z 0-9 . _ - (not . or ..), 1-128 characters")]
    BadName(String),
    #[error("{0} already exists; a bundle is never overwritten")]
    Exists(PathBuf),
    #[error("screenshot {0} is not a readable file")]
    Screenshot(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0} has no manifest.json: the bundle is incomplete")]
    Incomplete(PathBuf),
    #[error("{path} is not a valid bundle file: {message}")]
    Malformed { path: PathBuf, message: String },
    /// Refused before parsing: a bundle may come from anyone, and every level costs stack.
    #[error("{path} {source}")]
    TooDeep {
        path: PathBuf,
        #[source]
        source: whittle_core::nesting::TooDeep,
    },
    #[error("{dir}: file {file} does not match its manifest hash")]
    HashMismatch { dir: PathBuf, file: String },
    #[error("{dir}: file {file} is listed in the manifest but missing")]
    Missing { dir: PathBuf, file: String },
    #[error("{dir}: file {file} is not listed in the manifest")]
    Unlisted { dir: PathBuf, file: String },
}

impl ExportError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ExportError {
        let path = path.into();
        move |source| ExportError::Io { path, source }
    }
}
