//! Errors of the simulator: a bad model file, or bad command-line options.
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read simulator model {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("simulator model {path}: field `{field}`: {message}")]
    Parse {
        path: PathBuf,
        field: String,
        message: String,
    },
    #[error("simulator model {path}: field `{field}`: {message}")]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("--devices must be between 1 and {max}, got {got}")]
    DeviceCount { got: u32, max: u32 },
    #[error("MCP server over stdio failed: {0}")]
    Serve(String),
}
