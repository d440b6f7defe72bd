//! Evidence captures: one `adb logcat -v threadtime` child per session, writing to
//! `<session_dir>/logcat.txt`. A child that exits on its own (device unplugged, adb
//! server restarted) turns the capture `failed` with the reason, never silently `running`.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tokio::process::Child;
use whittle_core::contract::log::{Capture, CaptureState, StopCaptureResult};

use super::error::AdbError;
use super::runner::Adb;

pub const LOG_FILE: &str = "logcat.txt";

#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error("session_id must not be empty")]
    EmptySessionId,
    #[error("session_dir {0:?} must be an absolute path to an existing folder")]
    BadDir(String),
    #[error("a capture for session {0:?} is already running")]
    AlreadyRunning(String),
    #[error("cannot open {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Adb(#[from] AdbError),
}

#[derive(Debug)]
struct Entry {
    child: Option<Child>,
    log_path: PathBuf,
    status: CaptureState,
    reason: Option<String>,
}

impl Entry {
    /// Notices a child that has exited since the last look.
    fn poll(&mut self) {
        if self.status != CaptureState::Running {
            return;
        }
        let exited = match self.child.as_mut().map(Child::try_wait) {
            Some(Ok(Some(status))) => Some(format!("logcat process exited ({status})")),
            Some(Ok(None)) => None,
            Some(Err(e)) => Some(format!("cannot check the logcat process: {e}")),
            None => Some("logcat process is gone".to_string()),
        };
        if let Some(reason) = exited {
            self.status = CaptureState::Failed;
            self.reason = Some(reason);
            self.child = None;
        }
    }
}

#[derive(Debug, Default)]
pub struct Captures {
    entries: BTreeMap<String, Entry>,
}

impl Captures {
    pub fn start(
        &mut self,
        adb: &Adb,
        session_id: &str,
        session_dir: &str,
        device: &str,
    ) -> Result<CaptureState, CaptureError> {
        if session_id.trim().is_empty() {
            return Err(CaptureError::EmptySessionId);
        }
        let dir = Path::new(session_dir);
        if !dir.is_absolute() || !dir.is_dir() {
            return Err(CaptureError::BadDir(session_dir.to_string()));
        }
        if let Some(e) = self.entries.get_mut(session_id) {
            e.poll();
            if e.status == CaptureState::Running {
                return Err(CaptureError::AlreadyRunning(session_id.to_string()));
            }
        }
        let log_path = dir.join(LOG_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(|source| CaptureError::Open {
                path: log_path.clone(),
                source,
            })?;
        let child = adb.spawn_to_file(
            device,
            &["logcat", "-v", "threadtime"],
            file,
            "the logcat capture",
        )?;
        self.entries.insert(
            session_id.to_string(),
            Entry {
                child: Some(child),
                log_path,
                status: CaptureState::Running,
                reason: None,
            },
        );
        Ok(CaptureState::Running)
    }

    pub fn list(&mut self) -> Vec<Capture> {
        self.entries
            .iter_mut()
            .map(|(id, e)| {
                e.poll();
                Capture {
                    session_id: id.clone(),
                    status: e.status,
                    reason: e.reason.clone(),
                }
            })
            .collect()
    }

    /// Kills the child of a running capture and waits for it. A capture that had already
    /// failed reports that (`stopped: false` with the reason): its log has a gap.
    pub async fn stop(&mut self, session_id: &str) -> StopCaptureResult {
        let Some(e) = self.entries.get_mut(session_id) else {
            return StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: None,
                error: Some(format!("no capture for session {session_id:?}")),
                log_path: None,
            };
        };
        e.poll();
        let log_path = Some(e.log_path.display().to_string());
        if e.status == CaptureState::Failed {
            return StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: e.reason.clone(),
                error: None,
                log_path,
            };
        }
        if let Some(mut child) = e.child.take() {
            if let Err(err) = child.kill().await {
                e.status = CaptureState::Failed;
                e.reason = Some(format!("cannot stop the logcat process: {err}"));
                return StopCaptureResult {
                    stopped: false,
                    status: CaptureState::Failed,
                    reason: e.reason.clone(),
                    error: None,
                    log_path,
                };
            }
        }
        e.status = CaptureState::Stopped;
        StopCaptureResult {
            stopped: true,
            status: CaptureState::Stopped,
            reason: None,
            error: None,
            log_path,
        }
    }
}
