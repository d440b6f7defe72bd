//! Errors of the simulator: a bad model file, bad command-line options, or a refused
//! device action.
use std::path::PathBuf;

use crate::device::DeviceServeError;

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
    Serve(#[source] DeviceServeError),
}

/// A refusal the client should see as a tool error (bad device, package, button...).
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    #[error("unknown device {0:?} (this simulator has sim-1..sim-{1})")]
    UnknownDevice(String, usize),
    #[error("package {package:?} is not installed on {device}")]
    UnknownPackage { device: String, package: String },
    #[error("button {0:?} is not supported by the simulator; only BACK is")]
    UnsupportedButton(String),
    #[error("cannot encode the screenshot: {0}")]
    Screenshot(#[source] image::ImageError),
}
