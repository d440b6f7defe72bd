//! The attempts an evidence session recorded, read back from its `steps.jsonl` (one step
//! per replay, written by the report server): which steps each replayed, its verdict and
//! its screenshot. This is how an export labels screenshots by attempt and verdict.

use std::io::BufReader;
use std::path::Path;

use serde::Deserialize;
use whittle_core::engine::Phase;
use whittle_core::session::{parse_steps, STEPS_FILE};

use crate::export::{ShotLabel, ShotVerdict};

/// One replay as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedAttempt {
    pub label: ShotLabel,
    /// `screenshots/attempt-NNN.png`, when one was archived.
    pub screenshot: Option<String>,
}

/// The `notes` Whittle writes for each replay step.
#[derive(Deserialize)]
struct ReplayNotes {
    attempt: u32,
    #[serde(default)]
    phase: Option<Phase>,
    #[serde(default)]
    candidate: Vec<u32>,
    #[serde(default)]
    result: ReplayResult,
}

#[derive(Deserialize, Default)]
struct ReplayResult {
    #[serde(default)]
    reproduced: bool,
    #[serde(default)]
    reason: Option<String>,
}

/// Every replay step of the evidence session, in the order recorded. Steps that are not
/// replays (or a file that cannot be read) give nothing: labels are a help, and a
/// screenshot without one is still exported, just unlabelled.
pub fn recorded_attempts(evidence_dir: &Path) -> Vec<RecordedAttempt> {
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
        .into_iter()
        .filter_map(|step| {
            let notes: ReplayNotes = serde_json::from_str(&step.notes).ok()?;
            let runtime_error = notes
                .result
                .reason
                .as_deref()
                .is_some_and(|r| r.starts_with("runtime_error"));
            let verdict = if notes.result.reproduced {
                ShotVerdict::Reproduced
            } else if runtime_error {
                ShotVerdict::Error
            } else {
                ShotVerdict::NotReproduced
            };
            Some(RecordedAttempt {
                label: ShotLabel {
                    attempt: notes.attempt,
                    phase: notes.phase,
                    candidate: notes.candidate,
                    verdict,
                },
                screenshot: step.screenshot_src,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn no_or_broken_steps_mean_no_labels() {
        let dir = tempfile::tempdir().unwrap();
        assert!(recorded_attempts(dir.path()).is_empty());
        std::fs::write(dir.path().join(STEPS_FILE), "{not json").unwrap();
        assert!(recorded_attempts(dir.path()).is_empty());
    }
}
