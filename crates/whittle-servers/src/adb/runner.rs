//! Runs the local `adb` client with an argument vector: no local shell ever sees the
//! arguments. (The *device* shell still does for `adb shell`; see `input_escape` and
//! `validate`.)
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

use super::error::AdbError;

/// Long enough for a cold `monkey` launch or a full-resolution screencap over USB 2.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// stderr is quoted in errors only this far: enough to recognise adb's message.
const DETAIL_CHARS: usize = 300;

#[derive(Debug, Clone)]
pub struct Adb {
    program: PathBuf,
}

impl Adb {
    pub fn new(program: PathBuf) -> Adb {
        Adb { program }
    }

    fn command(&self, serial: Option<&str>, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.program);
        if let Some(s) = serial {
            cmd.arg("-s").arg(s);
        }
        cmd.args(args).stdin(Stdio::null()).kill_on_drop(true);
        cmd
    }

    /// Runs one adb command to completion; a non-zero exit is an error. `what` names the
    /// step in errors (never the arguments, which may carry typed text).
    pub async fn run(
        &self,
        serial: Option<&str>,
        args: &[&str],
        what: &'static str,
    ) -> Result<Vec<u8>, AdbError> {
        let mut cmd = self.command(serial, args);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let child = cmd.spawn().map_err(|source| AdbError::Spawn {
            program: self.program.clone(),
            what,
            source,
        })?;
        let output = tokio::time::timeout(CALL_TIMEOUT, child.wait_with_output())
            .await
            .map_err(|_| AdbError::Timeout {
                what,
                secs: CALL_TIMEOUT.as_secs(),
            })?
            .map_err(|source| AdbError::Spawn {
                program: self.program.clone(),
                what,
                source,
            })?;
        if output.status.success() {
            return Ok(output.stdout);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let detail = if stderr.trim().is_empty() {
            stdout
        } else {
            stderr
        };
        Err(AdbError::Failed {
            what,
            code: output
                .status
                .code()
                .map_or_else(|| "by signal".to_string(), |c| c.to_string()),
            detail: detail.trim().chars().take(DETAIL_CHARS).collect(),
        })
    }

    /// As `run`, decoding stdout as (lossy) UTF-8.
    pub async fn text(
        &self,
        serial: Option<&str>,
        args: &[&str],
        what: &'static str,
    ) -> Result<String, AdbError> {
        let out = self.run(serial, args, what).await?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// Starts a long-running adb command whose stdout goes to `out` (a capture).
    pub fn spawn_to_file(
        &self,
        serial: &str,
        args: &[&str],
        out: std::fs::File,
        what: &'static str,
    ) -> Result<Child, AdbError> {
        let mut cmd = self.command(Some(serial), args);
        cmd.stdout(Stdio::from(out)).stderr(Stdio::null());
        cmd.spawn().map_err(|source| AdbError::Spawn {
            program: self.program.clone(),
            what,
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_missing_adb_says_how_to_fix_it() {
        let adb = Adb::new(PathBuf::from("/nonexistent/platform-tools/adb"));
        let e = adb
            .run(None, &["devices", "-l"], "listing devices")
            .await
            .unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, AdbError::Spawn { .. }), "{msg}");
        assert!(
            msg.contains("listing devices") && msg.contains("--adb"),
            "{msg}"
        );
    }

    #[tokio::test]
    async fn a_failing_command_reports_its_exit_code_and_stderr() {
        // `sh` stands in for adb here: a constant script, no data.
        let adb = Adb::new(PathBuf::from("sh"));
        let e = adb
            .run(None, &["-c", "echo nope >&2; exit 3"], "probing")
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "adb failed during probing (exit 3): nope");
    }
}
