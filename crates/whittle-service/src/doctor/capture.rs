//! A log capture on a device: started into a throwaway folder, listed as running, stopped.
//! The run needs one on every device it replays on, so a broken logcat shows up here
//! rather than as a failed run.

use whittle_contract::log::CaptureState;

use super::check::{Check, CheckName, Finding};
use crate::client::Hub;

pub(super) async fn capture_check(hub: &Hub, device: &str) -> Check {
    let check =
        |finding, detail: String| Check::new(CheckName::Capture, finding, detail).subject(device);
    let unavailable =
        |detail: String, fix: &str| check(Finding::CaptureUnavailable, detail).fail(fix);
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return unavailable(format!("no temp folder: {e}"), "check TMPDIR"),
    };
    let session = format!("doctor-probe-{}", std::process::id());
    let dir_text = dir.path().display().to_string();
    let log = hub.log();
    if let Err(e) = log.start_capture(&session, &dir_text, device).await {
        return unavailable(
            e.to_string(),
            "check the log role's server and the device connection",
        );
    }
    let listed = log.list_captures().await.map(|list| {
        list.captures
            .into_iter()
            .find(|c| c.session_id == session)
            .map(|c| (c.status, c.reason))
    });
    let stopped = log.stop_capture(&session).await;
    let listed = match listed {
        Ok(listed) => listed,
        Err(e) => return unavailable(e.to_string(), "check the log role's server"),
    };
    match (listed, stopped) {
        (Some((CaptureState::Running, _)), Ok(stop)) if stop.stopped => check(
            Finding::CaptureRunning,
            format!("logs are captured from {device}"),
        ),
        (Some((state, reason)), _) if state != CaptureState::Running => {
            let reason = reason.unwrap_or_else(|| format!("{state:?}").to_lowercase());
            check(
                Finding::CaptureNotRunning,
                format!("capture on {device} is not running: {reason}"),
            )
            .fail("check that `adb logcat` works for this device (or the log server's own logs)")
        }
        (_, Ok(stop)) if !stop.stopped => {
            let reason = stop.reason.or(stop.error).unwrap_or_default();
            check(
                Finding::CaptureNotStopped,
                format!("capture did not stop cleanly: {reason}"),
            )
            .fail("restart the log server")
        }
        (_, Err(e)) => unavailable(e.to_string(), "check the log role's server"),
        _ => unavailable(
            "the capture was not listed after it started".into(),
            "check the log role's server",
        ),
    }
}
