//! The label of each screenshot an export carries: which attempt took it, which steps that
//! replayed and its verdict, read back from the evidence session's `steps.jsonl` (each
//! step's notes are the attempt's journal record, read by `run::attempt_of` as a reopened
//! run reads them). Here, above `run`, because it reads the run's record.

use std::io::BufReader;
use std::path::Path;

use whittle_core::session::{parse_steps, STEPS_FILE};

use crate::export::{ShotLabel, ShotVerdict};
use crate::run::{attempt_of, AttemptVerdict};

/// One replay as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShotLabelled {
    pub label: ShotLabel,
    /// `screenshots/attempt-NNN.png`, when one was archived.
    pub screenshot: Option<String>,
}

/// Every replay step of the evidence session, in the order recorded. Steps that are not
/// replays (or a file that cannot be read) give nothing: labels are a help, and a
/// screenshot without one is still exported, just unlabelled.
pub fn recorded_attempts(evidence_dir: &Path) -> Vec<ShotLabelled> {
    let path = evidence_dir.join(STEPS_FILE);
    // Evidence is untrusted: only a regular file, never a symlink out of the session.
    let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
    let Some(file) = regular.then(|| std::fs::File::open(&path).ok()).flatten() else {
        return Vec::new();
    };
    let steps = match parse_steps(BufReader::new(file)) {
        Ok(steps) => steps,
        Err(e) => {
            tracing::warn!(error = %e, "evidence steps unreadable; screenshots stay unlabelled");
            return Vec::new();
        }
    };
    steps
        .iter()
        .filter_map(|step| {
            let attempt = attempt_of(step)?;
            let verdict = match attempt.verdict {
                AttemptVerdict::Reproduced { .. } => ShotVerdict::Reproduced,
                AttemptVerdict::NotReproduced { .. } => ShotVerdict::NotReproduced,
                AttemptVerdict::Failed { .. } => ShotVerdict::Error,
                AttemptVerdict::Cancelled => ShotVerdict::Cancelled,
                AttemptVerdict::Unneeded => ShotVerdict::Unneeded,
            };
            Some(ShotLabelled {
                label: ShotLabel {
                    attempt: attempt.attempt,
                    phase: Some(attempt.phase),
                    candidate: attempt.candidate,
                    verdict,
                    before_step: attempt.screenshot_before_step,
                },
                // The step's own name: the export checks it against the archive.
                screenshot: step.screenshot_src.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::MissReason;
    use whittle_core::engine::Phase;

    #[test]
    fn replay_steps_are_read_with_their_verdicts_and_others_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let lines = [
            r#"{"index":1,"action":"replay [2,3]","result":"ok","notes":"{\"attempt\":1,\"phase\":\"baseline\",\"candidate\":[2,3],\"result\":{\"reproduced\":true}}","screenshot_src":"screenshots/attempt-001.png"}"#,
            r#"{"index":2,"action":"replay [3]","result":"fail","notes":"{\"attempt\":2,\"phase\":\"bisect\",\"candidate\":[3],\"result\":{\"reproduced\":false,\"reason\":\"no_crash\"}}","screenshot_redacted":true}"#,
            r#"{"index":3,"action":"replay [2]","result":"fail","notes":"{\"attempt\":3,\"phase\":\"bisect\",\"candidate\":[2],\"result\":{\"reproduced\":false,\"reason\":\"runtime_error\",\"error\":\"x\"}}"}"#,
            r#"{"index":4,"action":"a note","result":"ok","notes":"free text"}"#,
        ];
        std::fs::write(dir.path().join(STEPS_FILE), lines.join("\n")).unwrap();
        let got = recorded_attempts(dir.path());
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].label.verdict, ShotVerdict::Reproduced);
        assert_eq!(got[0].label.phase, Some(Phase::Baseline));
        assert_eq!(got[0].label.candidate, [2, 3]);
        assert_eq!(
            got[0].screenshot.as_deref(),
            Some("screenshots/attempt-001.png")
        );
        assert_eq!(got[1].label.verdict, ShotVerdict::NotReproduced);
        assert_eq!(got[1].screenshot, None);
        assert_eq!(got[2].label.verdict, ShotVerdict::Error);
    }

    /// Evidence of this Whittle: each step's notes are the attempt's journal record.
    #[test]
    fn journal_records_label_their_screenshots_by_outcome() {
        use crate::replay::ReplayVerdict;
        use crate::run::{AttemptOutcome, JournalAttempt};
        use whittle_core::engine::FailureCause;
        let record = |attempt: u32, outcome: AttemptOutcome| JournalAttempt {
            round: attempt,
            round_jobs: 1,
            attempt,
            phase: Phase::OneByOne,
            candidate: vec![attempt],
            speculative: false,
            device: "sim-1".into(),
            outcome,
            duration_ms: 10,
            screenshot_src: None,
            screenshot_redacted: false,
            screenshot_omitted: None,
            screenshot_before_step: None,
            finished_at: "2026-12-04T10:00:00Z".into(),
        };
        let outcomes = [
            AttemptOutcome::Replayed {
                verdict: ReplayVerdict::reproduced(None, None, vec![]),
            },
            AttemptOutcome::Replayed {
                verdict: ReplayVerdict::missed(MissReason::NoCrash, None, vec![]),
            },
            AttemptOutcome::Failed {
                cause: FailureCause::Drain {
                    detail: "gone".into(),
                },
            },
            AttemptOutcome::Cancelled,
        ];
        let lines: Vec<String> = outcomes
            .into_iter()
            .enumerate()
            .map(|(i, outcome)| {
                let notes = serde_json::to_string(&record(i as u32 + 1, outcome)).unwrap();
                serde_json::json!({"index": i + 1, "action": "replay", "result": "ok", "notes": notes})
                    .to_string()
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(STEPS_FILE), lines.join("\n")).unwrap();
        let verdicts: Vec<ShotVerdict> = recorded_attempts(dir.path())
            .into_iter()
            .map(|a| a.label.verdict)
            .collect();
        assert_eq!(
            verdicts,
            [
                ShotVerdict::Reproduced,
                ShotVerdict::NotReproduced,
                ShotVerdict::Error,
                ShotVerdict::Cancelled
            ]
        );
    }

    #[test]
    fn no_or_broken_steps_mean_no_labels() {
        let dir = tempfile::tempdir().unwrap();
        assert!(recorded_attempts(dir.path()).is_empty());
        std::fs::write(dir.path().join(STEPS_FILE), "{not json").unwrap();
        assert!(recorded_attempts(dir.path()).is_empty());
    }
}
