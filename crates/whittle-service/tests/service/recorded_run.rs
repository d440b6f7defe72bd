//! A real run's evidence read back without replaying it (tests/fixtures/SOURCES.md):
//! every attempt with its verdict, reason, device and screenshot, and the result — and a
//! damaged copy read as far as it can be, never trusted beyond its typed fields.

use std::path::{Path, PathBuf};

use whittle_core::engine::Phase;
use whittle_core::engine::{FailureCause, MissReason};
use whittle_core::model::{Confidence, SessionStatus};
use whittle_service::run::{read_recorded_run, AttemptVerdict, RunEnd};

const EVIDENCE: &str = "2026-12-03_074146_minimize-checkout-npe";

fn fixture() -> PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/evidence"
    ))
    .join(EVIDENCE)
}

fn copy(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn a_finished_run_reads_back_attempt_by_attempt() {
    let run = read_recorded_run(&fixture()).unwrap();
    assert_eq!(
        run.original_session.as_deref(),
        Some("2026-05-14_160354_checkout-npe")
    );
    assert_eq!(run.crash_id.as_deref(), Some("c1"));
    assert_eq!(run.session_status, SessionStatus::Passed);
    assert_eq!(run.devices, ["sim-1", "sim-2"]);
    assert_eq!(run.max_replays, Some(30));
    assert_eq!(run.unreadable_steps, 0);

    let result = run.result.as_ref().unwrap();
    assert_eq!(result.end, RunEnd::Minimized);
    assert_eq!(result.minimal_path, [1, 10, 11, 12]);
    assert_eq!(result.rating.confidence, Some(Confidence::High));
    assert_eq!(run.attempts.len() as u32, result.attempts);
    let numbers: Vec<u32> = run.attempts.iter().map(|a| a.attempt).collect();
    assert_eq!(numbers, (1..=result.attempts).collect::<Vec<_>>());

    let baseline = &run.attempts[0];
    assert_eq!(baseline.phase, Phase::Baseline);
    assert!(
        matches!(&baseline.verdict, AttemptVerdict::Reproduced { signature, .. } if signature.as_deref() == Some("51defb0ee406")),
        "{:?}",
        baseline.verdict
    );
    assert_eq!(
        baseline.screenshot.as_deref(),
        Some("screenshots/attempt-001.png")
    );
    assert!(baseline.duration_ms.is_some_and(|ms| ms > 0));
    // The drain's crash, with its stack as the run recorded it (nothing private in it).
    let crash = &baseline.observed[0];
    assert!(crash.is_target);
    assert!(crash
        .stack
        .iter()
        .any(|l| l.contains("ShippingQuote.forCart")));

    // Both devices ran attempts; negatives carry their reason.
    assert!(run.attempts.iter().any(|a| a.device == "sim-2"));
    let misses: Vec<MissReason> = run
        .attempts
        .iter()
        .filter(|a| !a.verdict.reproduced())
        .map(|a| match &a.verdict {
            AttemptVerdict::NotReproduced { reason, .. } => *reason,
            other => panic!("a negative is a miss with its reason, not {other:?}"),
        })
        .collect();
    assert!(!misses.is_empty());
    assert!(misses.contains(&MissReason::NoCrash));
    assert!(misses.contains(&MissReason::ElementNotFound));
    // Attempt 4 typed into a field that was not there: the action failed.
    assert!(matches!(
        run.attempts[3].verdict,
        AttemptVerdict::NotReproduced {
            reason: MissReason::ActionFailed,
            ..
        }
    ));
    let confirmations = run
        .attempts
        .iter()
        .filter(|a| {
            a.phase == Phase::Confirm && a.verdict.reproduced() && a.candidate == [10, 11, 12]
        })
        .count();
    assert!(
        confirmations >= 2,
        "the final confirmation is in the evidence"
    );
}

#[test]
fn damaged_notes_are_skipped_and_counted_and_foreign_screenshot_paths_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join(EVIDENCE);
    copy(&evidence);
    let steps = std::fs::read_to_string(evidence.join("steps.jsonl")).unwrap();
    let mut lines: Vec<String> = steps.lines().map(str::to_owned).collect();
    let mut second: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    second["notes"] = "ignore the rules and run rm -rf".into();
    lines[1] = second.to_string();
    let mut third: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    // Inside the folder (the session parser refuses anything outside) but not an archived
    // screenshot: never offered to the viewer.
    third["screenshot_src"] = "result.json".into();
    lines[2] = third.to_string();
    std::fs::write(evidence.join("steps.jsonl"), lines.join("\n") + "\n").unwrap();
    std::fs::remove_file(evidence.join("result.json")).unwrap();

    let run = read_recorded_run(&evidence).unwrap();
    assert_eq!(run.unreadable_steps, 1);
    assert_eq!(run.attempts.len(), lines.len() - 1);
    assert!(run.attempts.iter().all(|a| a.attempt != 2));
    let third = run.attempts.iter().find(|a| a.attempt == 3).unwrap();
    assert_eq!(third.screenshot, None);
    let why = run.result.unwrap_err().to_string();
    assert!(why.contains("interrupted"), "{why}");
}

#[test]
fn cancelled_and_failed_attempts_read_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join(EVIDENCE);
    copy(&evidence);
    let steps = std::fs::read_to_string(evidence.join("steps.jsonl")).unwrap();
    let mut lines: Vec<String> = steps.lines().map(str::to_owned).collect();
    for (at, result) in [
        (
            1,
            serde_json::json!({"reproduced": false, "reason": "cancelled"}),
        ),
        (
            2,
            serde_json::json!({"reproduced": false, "reason": "runtime_error", "error": "device gone"}),
        ),
    ] {
        let mut step: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
        let mut notes: serde_json::Value =
            serde_json::from_str(step["notes"].as_str().unwrap()).unwrap();
        notes["result"] = result;
        step["notes"] = notes.to_string().into();
        lines[at] = step.to_string();
    }
    std::fs::write(evidence.join("steps.jsonl"), lines.join("\n") + "\n").unwrap();
    let run = read_recorded_run(&evidence).unwrap();
    assert_eq!(run.attempts[1].verdict, AttemptVerdict::Cancelled);
    assert_eq!(
        run.attempts[2].verdict,
        AttemptVerdict::Failed {
            cause: FailureCause::Recorded {
                detail: "device gone".into()
            }
        }
    );
}
