//! Phase 2 (docs/design.md §13): the "minimize" child session and its log capture.

use serde_json::{json, Map, Value};
use whittle_contract::log::CaptureState;

use super::LiveRun;
use crate::client::{Hub, McpError};
use crate::config::PrivacyLevel;

/// The evidence session as the report server created it.
#[derive(Debug, Clone)]
pub struct EvidenceSession {
    pub id: String,
    pub dir: std::path::PathBuf,
}

/// One pool device's log capture: the primary keeps the evidence session's id and
/// folder; every other device gets `<evidence_id>@<device>` and
/// `<evidence_dir>/devices/<safe device id>/`, so captures never share a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceCapture {
    pub device: String,
    pub capture_id: String,
    pub dir: std::path::PathBuf,
}

impl EvidenceSession {
    /// Asks the report server for a new evidence session named `name`.
    pub async fn start(
        hub: &Hub,
        name: &str,
        extra: Map<String, Value>,
    ) -> Result<EvidenceSession, McpError> {
        let started = hub.report().start_session(name, extra).await?;
        Ok(EvidenceSession {
            id: started.session_id,
            dir: started.session_dir.into(),
        })
    }

    /// Starts the session's own log capture on `device`; `None` when it started, else
    /// why not.
    pub async fn start_capture(&self, hub: &Hub, device: &str) -> Option<String> {
        hub.log()
            .start_capture(&self.id, &self.dir.to_string_lossy(), device)
            .await
            .err()
            .map(|e| format!("log capture did not start: {e}"))
    }

    pub fn capture_for(&self, device: &str, primary: bool) -> DeviceCapture {
        if primary {
            return DeviceCapture {
                device: device.to_string(),
                capture_id: self.id.clone(),
                dir: self.dir.clone(),
            };
        }
        DeviceCapture {
            device: device.to_string(),
            capture_id: format!("{}@{device}", self.id),
            dir: self.dir.join("devices").join(safe_device_id(device)),
        }
    }
}

/// A device id as one folder name: only `[A-Za-z0-9._-]` (anything else becomes `_`),
/// never empty, `.` or `..` (device ids come from the device list, which is untrusted).
pub fn safe_device_id(device: &str) -> String {
    let safe = crate::safe_chars::to_safe_chars(device);
    if safe.chars().all(|c| c == '.') {
        // Covers "", "." and ".." (and longer runs of dots, harmless but odd).
        "_".repeat(safe.len().max(1))
    } else {
        safe
    }
}

/// `minimize-<short>`: the original id without its `YYYY-MM-DD_HHMMSS_` prefix.
pub fn evidence_name(original: &str) -> String {
    let bytes = original.as_bytes();
    let stamped = bytes.len() > 18
        && bytes[..18].iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            10 | 17 => *b == b'_',
            _ => b.is_ascii_digit(),
        });
    let short: String = if stamped { &original[18..] } else { original }
        .chars()
        .take(48)
        .collect();
    format!("minimize-{short}")
}

/// The evidence session's `extra` in `meta.json`: what the run is about, and the
/// privacy level its screenshots are masked at (an export's manifest repeats it).
pub fn evidence_extra(run: &LiveRun, masking_level: PrivacyLevel) -> Map<String, Value> {
    let extra = json!({
        "original_session": run.session_id,
        "target_fingerprint": run.ctx.target.fingerprint(),
        "target_label": run.target_label,
        "fingerprint_reliable": run.identity.fingerprint_reliable,
        "signature_degraded": run.identity.signature_degraded,
        "package": run.ctx.package,
        "device_id": run.ctx.device,
        "platform": "android",
        "max_replays": run.max_replays,
        "devices": run.pool,
        "crash_id": run.crash.crash_id,
        "masking_level": masking_level,
    });
    match extra {
        Value::Object(mut map) => {
            if !run.pool_servers.is_empty() {
                map.insert("device_servers".into(), json!(run.pool_servers));
            }
            map
        }
        _ => Map::new(),
    }
}

/// `None` when the capture of `session_id` is running; else why not (seed: a missing
/// entry is "日志抓取意外消失").
pub async fn capture_problem(hub: &Hub, session_id: &str) -> Option<String> {
    match hub.log().list_captures().await {
        Err(e) => Some(format!("cannot list log captures: {e}")),
        Ok(list) => match list.captures.iter().find(|c| c.session_id == session_id) {
            None => Some("the log capture disappeared unexpectedly".into()),
            Some(c) if c.status == CaptureState::Running => None,
            Some(c) => Some(format!(
                "log capture is {}{}",
                match c.status {
                    CaptureState::Running => "running",
                    CaptureState::Stopped => "stopped",
                    CaptureState::Failed => "failed",
                },
                c.reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            )),
        },
    }
}

/// `None` when the capture stopped cleanly (`stopped: true`, status not failed).
pub async fn stop_problem(hub: &Hub, session_id: &str) -> Option<String> {
    match hub.log().stop_capture(session_id).await {
        Err(e) => Some(format!("stop_capture failed: {e}")),
        Ok(r) if r.stopped && r.status != CaptureState::Failed => None,
        Ok(r) => Some(
            r.reason
                .or(r.error)
                .unwrap_or_else(|| "the log capture did not stop cleanly".into()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{evidence_name, safe_device_id, EvidenceSession};

    #[test]
    fn extra_devices_get_their_own_capture_id_and_folder() {
        let evidence = EvidenceSession {
            id: "2026-01-01_000000_minimize-x".into(),
            dir: "/w/sessions/2026-01-01_000000_minimize-x".into(),
        };
        let primary = evidence.capture_for("sim-1", true);
        assert_eq!(primary.capture_id, evidence.id);
        assert_eq!(primary.dir, evidence.dir);
        let extra = evidence.capture_for("192.168.1.5:5555", false);
        assert_eq!(
            extra.capture_id,
            "2026-01-01_000000_minimize-x@192.168.1.5:5555"
        );
        assert_eq!(extra.dir, evidence.dir.join("devices/192.168.1.5_5555"));
    }

    #[test]
    fn device_folders_never_escape() {
        assert_eq!(safe_device_id("emulator-5554"), "emulator-5554");
        assert_eq!(safe_device_id("../../etc"), ".._.._etc");
        assert_eq!(safe_device_id(".."), "__");
        assert_eq!(safe_device_id("."), "_");
        assert_eq!(safe_device_id(""), "_");
        assert_eq!(safe_device_id("a/b\\c d"), "a_b_c_d");
    }

    #[test]
    fn name_drops_the_timestamp_prefix() {
        assert_eq!(
            evidence_name("2026-05-14_160354_qa-sdk805"),
            "minimize-qa-sdk805"
        );
        assert_eq!(evidence_name("qa-sdk805"), "minimize-qa-sdk805");
        assert_eq!(
            evidence_name("2026-05-14_16035x_a"),
            "minimize-2026-05-14_16035x_a"
        );
    }
}
