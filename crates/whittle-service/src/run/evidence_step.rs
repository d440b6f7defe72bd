//! One journaled attempt as the other views of it: the report server's evidence step
//! (`action`, `result`, and the `notes` record that `recorded` reads back) and the
//! window's `AttemptFinished` event. Both come from the journal record, so a live
//! attempt and one shown again after a resume look the same.

use serde_json::json;
use whittle_contract::report::RecordStepArgs;

use super::journal::{AttemptOutcome, JournalAttempt};
use super::{AttemptReason, RunEvent};

/// The report server's step for `entry` in evidence session `session_id`; `server` is
/// the lab host that owns the device, in a pool across several servers.
pub(crate) fn evidence_step(
    session_id: &str,
    entry: &JournalAttempt,
    server: Option<String>,
) -> RecordStepArgs {
    let result = match &entry.outcome {
        AttemptOutcome::Replayed { verdict } => serde_json::to_value(verdict).unwrap_or_default(),
        // The user stopped it: not a failure of the device (see `recorded`).
        AttemptOutcome::Cancelled => json!({ "reproduced": false, "reason": "cancelled" }),
        AttemptOutcome::Failed { error } => {
            json!({ "reproduced": false, "reason": "runtime_error", "error": error })
        }
    };
    let action = format!(
        "replay [{}]",
        entry
            .candidate
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut notes = json!({
        "attempt": entry.attempt, "phase": entry.phase, "candidate": entry.candidate,
        "result": result, "device": entry.device, "speculative": entry.speculative,
        "duration_ms": entry.duration_ms,
    });
    // An omitted screenshot says why, next to `screenshot_redacted: true`.
    if let Some(why) = &entry.screenshot_omitted {
        notes["screenshot_omitted"] = json!(why);
    }
    // In a pool across lab hosts the device id alone does not say which host ran it.
    if let Some(server) = server {
        notes["server"] = json!(server);
    }
    RecordStepArgs {
        session_id: session_id.to_owned(),
        action,
        result: if reproduced(entry) { "ok" } else { "fail" }.into(),
        notes: notes.to_string(),
        screenshot_src: entry.screenshot_src.clone(),
        screenshot_redacted: Some(entry.screenshot_redacted),
    }
}

pub(crate) fn reproduced(entry: &JournalAttempt) -> bool {
    entry.outcome.verdict().is_some_and(|v| v.reproduced)
}

/// The window's event for `entry`.
pub(crate) fn finished_event(entry: &JournalAttempt) -> RunEvent {
    let verdict = entry.outcome.verdict();
    RunEvent::AttemptFinished {
        attempt: entry.attempt,
        phase: entry.phase,
        candidate: entry.candidate.clone(),
        reproduced: reproduced(entry),
        reason: match &entry.outcome {
            AttemptOutcome::Replayed { verdict } => verdict.reason.map(AttemptReason::from),
            AttemptOutcome::Cancelled => Some(AttemptReason::Cancelled),
            AttemptOutcome::Failed { error } => Some(AttemptReason::RuntimeError {
                detail: error.clone(),
            }),
        },
        step: verdict.and_then(|v| v.step),
        signature: verdict.and_then(|v| v.signature.clone()),
        label: verdict.and_then(|v| v.label.clone()),
        observed: verdict.map(|v| v.observed.clone()).unwrap_or_default(),
        duration_ms: entry.duration_ms,
        screenshot: entry.screenshot_src.clone(),
        screenshot_redacted: entry.screenshot_redacted,
        device: entry.device.clone(),
    }
}
