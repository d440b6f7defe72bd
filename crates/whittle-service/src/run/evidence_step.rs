//! One journaled attempt as the report server's evidence step (`action`, `result`, and
//! `notes`, which is the journal record itself, so the two durable records of an attempt
//! share one schema and a resume can compare them) and as the window's `AttemptFinished`
//! event (the `RecordedAttempt` a reopened run shows too, `recorded_attempt.rs`).

use serde::Serialize;
use whittle_contract::report::RecordStepArgs;

use super::journal::JournalAttempt;
use super::recorded_attempt::recorded_attempt;
use super::RunEvent;

/// What an evidence step's `notes` hold: the journal record, and the lab host that
/// owns the device in a pool across several servers (the device id alone does not say
/// which host ran it).
#[derive(Serialize)]
struct StepNotes<'a> {
    #[serde(flatten)]
    record: &'a JournalAttempt,
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<String>,
}

/// The report server's step for `entry` in evidence session `session_id`; `server` is
/// the lab host that owns the device, in a pool across several servers.
pub(crate) fn evidence_step(
    session_id: &str,
    entry: &JournalAttempt,
    server: Option<String>,
) -> RecordStepArgs {
    let action = format!(
        "replay [{}]",
        entry
            .candidate
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let notes = StepNotes {
        record: entry,
        server,
    };
    RecordStepArgs {
        session_id: session_id.to_owned(),
        action,
        result: if reproduced(entry) { "ok" } else { "fail" }.into(),
        notes: serde_json::to_string(&notes).unwrap_or_default(),
        screenshot_src: entry.screenshot_src.clone(),
        screenshot_redacted: Some(entry.screenshot_redacted),
    }
}

fn reproduced(entry: &JournalAttempt) -> bool {
    entry.outcome.verdict().is_some_and(|v| v.reproduced)
}

/// The window's event for `entry`.
pub(crate) fn finished_event(entry: &JournalAttempt) -> RunEvent {
    RunEvent::AttemptFinished(recorded_attempt(
        entry,
        entry.screenshot_src.clone(),
        entry.screenshot_redacted,
    ))
}
