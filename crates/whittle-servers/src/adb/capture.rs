//! What feeds an adb capture: one `adb logcat -v threadtime` child per session, writing
//! to the session's `logcat.txt` (`crate::device::capture` keeps the registry). A child
//! that exits on its own (device unplugged, adb server restarted) fails its capture.
use std::fs::File;

use tokio::process::Child;

use super::error::AdbError;
use super::runner::Adb;
use crate::device::capture::CaptureFeed;

#[derive(Debug)]
pub struct LogcatChild(Child);

/// The logcat child could not be killed, so it may still write the log.
#[derive(Debug, thiserror::Error)]
#[error("cannot stop the logcat process: {source}")]
pub struct LogcatStopError {
    #[source]
    source: std::io::Error,
}

impl LogcatChild {
    pub fn spawn(adb: &Adb, serial: &str, file: File) -> Result<LogcatChild, AdbError> {
        let args = ["logcat", "-v", "threadtime"];
        let child = adb.spawn_to_file(serial, &args, file, "the logcat capture")?;
        Ok(LogcatChild(child))
    }
}

impl CaptureFeed for LogcatChild {
    type EndError = LogcatStopError;

    fn ended(&mut self) -> Option<String> {
        match self.0.try_wait() {
            Ok(Some(status)) => Some(format!("logcat process exited ({status})")),
            Ok(None) => None,
            Err(e) => Some(format!("cannot check the logcat process: {e}")),
        }
    }

    /// Kills the child and waits for it, so nothing writes the log after the stop.
    async fn end(mut self) -> Result<(), LogcatStopError> {
        self.0
            .kill()
            .await
            .map_err(|source| LogcatStopError { source })
    }
}
