//! Seed Phase 2: the "minimize" child session and its log capture.

use serde_json::{json, Map, Value};
use whittle_core::contract::log::CaptureState;

use super::LiveRun;
use crate::client::Hub;

/// The evidence session as the report server created it.
#[derive(Debug, Clone)]
pub struct EvidenceSession {
    pub id: String,
    pub dir: std::path::PathBuf,
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

pub fn evidence_extra(run: &LiveRun) -> Map<String, Value> {
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
        "crash_id": run.crash.crash_id,
    });
    match extra {
        Value::Object(map) => map,
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
    use super::evidence_name;

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
