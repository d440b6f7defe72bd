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

/// The report server's step for the search's `entry` in evidence session `session_id`
/// (`replay [candidate]`, ok when it reproduced the crash); `server` is the lab host
/// that owns the device, in a pool across several servers.
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
    attempt_step(session_id, action, reproduced(entry), entry, server)
}

/// The report server's step for any attempt's `entry`: what it was (`action`) and
/// whether it found what it was run for (`ok`) are the caller's; its notes are the
/// journal record, so every reader of evidence reads any attempt's step the same way.
pub(crate) fn attempt_step(
    session_id: &str,
    action: String,
    ok: bool,
    entry: &JournalAttempt,
    server: Option<String>,
) -> RecordStepArgs {
    let notes = StepNotes {
        record: entry,
        server,
    };
    RecordStepArgs {
        session_id: session_id.to_owned(),
        action,
        result: if ok { "ok" } else { "fail" }.into(),
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

#[cfg(test)]
mod tests {
    use whittle_core::engine::Phase;

    use super::*;
    use crate::evidence::ShotOmission;
    use crate::run::AttemptOutcome;

    fn entry() -> JournalAttempt {
        JournalAttempt {
            round: 1,
            round_jobs: 1,
            attempt: 1,
            phase: Phase::Baseline,
            candidate: vec![2, 3],
            speculative: false,
            device: "emulator-5554".into(),
            outcome: AttemptOutcome::Cancelled,
            duration_ms: 12,
            screenshot_src: None,
            screenshot_redacted: true,
            screenshot_omitted: Some(ShotOmission::Cancelled),
            screenshot_before_step: None,
            finished_at: "2026-01-01T00:00:00.000Z".into(),
        }
    }

    #[test]
    fn notes_without_a_server_are_the_journal_record_itself() {
        // A recording's step wrote the journal record alone before the two shared this.
        let entry = entry();
        let step = attempt_step("e", "record s".into(), true, &entry, None);
        assert_eq!(step.notes, serde_json::to_string(&entry).unwrap());
        assert_eq!(step.result, "ok");
        let with_server = attempt_step("e", "a".into(), false, &entry, Some("lab-2".into()));
        let notes: serde_json::Value = serde_json::from_str(&with_server.notes).unwrap();
        assert_eq!(notes["server"], "lab-2");
        assert_eq!(notes["attempt"], 1);
        assert_eq!(with_server.result, "fail");
    }

    #[test]
    fn a_search_step_names_its_candidate() {
        let step = evidence_step("e", &entry(), None);
        assert_eq!(step.action, "replay [2,3]");
        assert_eq!(step.result, "fail");
    }
}
