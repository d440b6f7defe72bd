//! Why an adb-backed tool failed. Messages name the adb step (`what`) rather than the
//! argument vector: an argv may carry typed text, which must never reach a log or a reply.
use std::path::PathBuf;

use super::hierarchy::DumpParseError;
use super::png::PngHeaderError;

#[derive(Debug, thiserror::Error)]
pub enum AdbError {
    #[error("cannot run adb ({program}) for {what}: {source}; install Android platform-tools or pass --adb PATH")]
    Spawn {
        program: PathBuf,
        what: &'static str,
        source: std::io::Error,
    },
    #[error("adb timed out after {secs}s during {what}")]
    Timeout { what: &'static str, secs: u64 },
    #[error("adb failed during {what} (exit {code}): {detail}")]
    Failed {
        what: &'static str,
        code: String,
        detail: String,
    },
    #[error("device id {0:?} is not a valid adb serial")]
    BadDevice(String),
    #[error("device {got:?} is not served here: this server was started with --serial {serial:?}")]
    OtherDevice { got: String, serial: String },
    #[error("{0:?} is not a valid Android package name")]
    BadPackage(String),
    #[error("cannot launch {package}: {detail}")]
    Launch { package: String, detail: String },
    #[error("button {0:?} is not supported (BACK, HOME, ENTER, VOLUME_UP, VOLUME_DOWN, DPAD_CENTER, DPAD_UP, DPAD_DOWN, DPAD_LEFT, DPAD_RIGHT)")]
    UnknownButton(String),
    #[error("screencap did not return a PNG image: {0}")]
    NotPng(#[source] PngHeaderError),
    #[error("uiautomator dump failed {attempts} times; last error: {last}")]
    Dump {
        attempts: u32,
        /// Boxed: an attempt's error may itself be an `AdbError`.
        #[source]
        last: Box<DumpAttemptError>,
    },
}

/// Why one `uiautomator dump` attempt gave no screen; the attempts are retried, and the
/// last of these is what the client reads.
#[derive(Debug, thiserror::Error)]
pub enum DumpAttemptError {
    #[error(transparent)]
    Adb(#[from] AdbError),
    /// uiautomator printed no "dumped to" line (it may exit 0 on failure).
    #[error("uiautomator said {said:?}")]
    NotDumped { said: String },
    #[error(transparent)]
    Parse(#[from] DumpParseError),
}
