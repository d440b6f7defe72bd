//! Evidence captures: a logcat-like `logcat.txt` per session, fed with the device's
//! events (launches, taps, crashes with their stack). Never holds a typed value.
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use whittle_core::contract::log::{Capture, CaptureState, StopCaptureResult};

use crate::capture_log::{check_request, open_log};

/// What a real backend reports when its `adb logcat` child dies.
pub const DIED_REASON: &str = "logcat process exited";
/// What a real backend reports when the device goes away under a capture.
pub const DISCONNECTED_REASON: &str = "device disconnected";

#[derive(Debug)]
struct Entry {
    device: String,
    log_path: PathBuf,
    status: CaptureState,
    reason: Option<String>,
    launches: u32,
}

#[derive(Debug, Default)]
pub struct Captures {
    entries: BTreeMap<String, Entry>,
    /// Fault `capture-dies-after=N`.
    dies_after: Option<u32>,
}

pub use crate::capture_log::CaptureLogError as CaptureError;

impl Captures {
    pub fn new(dies_after: Option<u32>) -> Self {
        Captures {
            entries: BTreeMap::new(),
            dies_after,
        }
    }

    /// Starts capturing `device` into `<session_dir>/logcat.txt`, which begins with
    /// `header` (lines already in logcat form).
    pub fn start(
        &mut self,
        session_id: &str,
        session_dir: &str,
        device: &str,
        header: &[String],
    ) -> Result<CaptureState, CaptureError> {
        let dir = check_request(session_id, session_dir)?;
        if self
            .entries
            .get(session_id)
            .is_some_and(|e| e.status == CaptureState::Running)
        {
            return Err(CaptureError::AlreadyRunning(session_id.to_string()));
        }
        let (log_path, mut file) = open_log(dir)?;
        for line in header {
            writeln!(file, "{line}").map_err(|source| CaptureError::Open {
                path: log_path.clone(),
                source,
            })?;
        }
        self.entries.insert(
            session_id.to_string(),
            Entry {
                device: device.to_string(),
                log_path,
                status: CaptureState::Running,
                reason: None,
                launches: 0,
            },
        );
        Ok(CaptureState::Running)
    }

    /// Counts a launch on `device`; applies the `capture-dies-after` fault.
    pub fn on_launch(&mut self, device: &str) {
        let dies_after = self.dies_after;
        for e in self.running_for(device) {
            e.launches += 1;
            if dies_after.is_some_and(|n| e.launches >= n) {
                e.status = CaptureState::Failed;
                e.reason = Some(DIED_REASON.to_string());
            }
        }
    }

    /// Fails every running capture with `reason` (fault `device-gone-after-launches`).
    pub fn fail_all(&mut self, reason: &str) {
        for e in self.entries.values_mut() {
            if e.status == CaptureState::Running {
                e.status = CaptureState::Failed;
                e.reason = Some(reason.to_string());
            }
        }
    }

    /// Appends lines to every running capture of `device`; a write failure fails that
    /// capture rather than going unnoticed.
    pub fn append(&mut self, device: &str, lines: &[String]) {
        for e in self.running_for(device) {
            let written = std::fs::OpenOptions::new()
                .append(true)
                .open(&e.log_path)
                .and_then(|mut f| {
                    for line in lines {
                        writeln!(f, "{line}")?;
                    }
                    Ok(())
                });
            if let Err(err) = written {
                e.status = CaptureState::Failed;
                e.reason = Some(format!("cannot write {}: {err}", e.log_path.display()));
            }
        }
    }

    pub fn list(&self) -> Vec<Capture> {
        self.entries
            .iter()
            .map(|(id, e)| Capture {
                session_id: id.clone(),
                status: e.status,
                reason: e.reason.clone(),
            })
            .collect()
    }

    pub fn stop(&mut self, session_id: &str) -> StopCaptureResult {
        let Some(e) = self.entries.get_mut(session_id) else {
            return StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: None,
                error: Some(format!("no capture for session {session_id:?}")),
                log_path: None,
            };
        };
        let log_path = Some(e.log_path.display().to_string());
        match e.status {
            CaptureState::Failed => StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: e.reason.clone(),
                error: None,
                log_path,
            },
            CaptureState::Running | CaptureState::Stopped => {
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
    }

    fn running_for<'a>(&'a mut self, device: &'a str) -> impl Iterator<Item = &'a mut Entry> {
        self.entries
            .values_mut()
            .filter(move |e| e.device == device && e.status == CaptureState::Running)
    }
}

/// One line in logcat's threadtime format.
pub fn logcat_line(
    now: &chrono::DateTime<chrono::Utc>,
    pid: u32,
    level: char,
    tag: &str,
    message: &str,
) -> String {
    format!(
        "{}  {pid:>5} {pid:>5} {level} {tag}: {message}",
        now.format("%m-%d %H:%M:%S%.3f")
    )
}
