//! Evidence captures: one `adb logcat -v threadtime` child per session, writing to
//! `<session_dir>/logcat.txt`. A child that exits on its own (device unplugged, adb
//! server restarted) turns the capture `failed` with the reason, never silently `running`.
use std::collections::BTreeMap;
use std::path::PathBuf;

use tokio::process::Child;
use whittle_core::contract::log::{Capture, CaptureState, StopCaptureResult};

use super::error::AdbError;
use super::runner::Adb;
use crate::capture_log::{check_request, open_log, CaptureLogError};

#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error(transparent)]
    Log(#[from] CaptureLogError),
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
        let dir = check_request(session_id, session_dir)?;
        if let Some(e) = self.entries.get_mut(session_id) {
            e.poll();
            if e.status == CaptureState::Running {
                return Err(CaptureLogError::AlreadyRunning(session_id.to_string()).into());
            }
        }
        let (log_path, file) = open_log(dir)?;
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
