//! A real Android device over `adb`, served as the mobile, ui and log roles (docs/design.md §2) by
//! one stdio MCP server: `whittle-servers adb [--adb PATH] [--serial S]`.
//!
//! Every device command is a fixed argument vector run without a local shell. adb still
//! joins the words after `shell` into one string for the device's shell, so only
//! validated package names and serials, integers, and single-quoted text words
//! (`input_escape`) reach it. Typed text is never logged nor echoed in a reply.

pub mod adb_keyboard;
mod backend;
mod buttons;
mod capture;
pub mod crash_log;
mod device_backend;
mod devices;
mod error;
pub mod hierarchy;
pub mod input_escape;
mod packages;
mod png;
mod runner;
pub mod tap_target;
mod threadtime;
mod ui_actions;
mod validate;

use std::path::PathBuf;

pub use backend::Backend;
pub use error::AdbError;
pub use runner::Adb;

/// The adb device server: the device router over adb.
pub type AdbServer = crate::device::DeviceServer<Backend>;

#[derive(Debug, Clone, clap::Args)]
pub struct AdbArgs {
    /// The adb executable (default: `adb` on PATH).
    #[arg(long, default_value = "adb")]
    pub adb: PathBuf,
    /// Drive only this device (an `adb devices` serial); others are neither listed nor
    /// accepted.
    #[arg(long)]
    pub serial: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AdbServeError {
    #[error("--serial: {0}")]
    Serial(#[from] AdbError),
    #[error("MCP server failed: {0}")]
    Serve(#[source] crate::device::DeviceServeError),
}

/// Builds the server for `args` without serving it.
pub fn build(args: &AdbArgs) -> Result<AdbServer, AdbServeError> {
    let serial = match &args.serial {
        Some(s) => Some(validate::serial(s)?.to_string()),
        None => None,
    };
    Ok(AdbServer::new(Backend::new(
        Adb::new(args.adb.clone()),
        serial,
    )))
}

/// Serves on stdin/stdout until the client goes away.
pub async fn serve_stdio(args: AdbArgs) -> Result<(), AdbServeError> {
    let server = build(&args)?;
    tracing::info!(adb = %args.adb.display(), serial = ?args.serial, "adb device server ready");
    server.serve_stdio().await.map_err(AdbServeError::Serve)
}
