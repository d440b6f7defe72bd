//! The flags a run's result reports, embedded (flattened, so the JSON keeps its flat
//! shape) in both [`super::RunSummary`] (`--json`, the window) and
//! [`super::PendingResult`] (`result.json`): the [`Rating`] built once from the
//! search's [`Assessment`], and the engine's own [`SearchFlags`], which the search's
//! `SearchResult` embeds the same way, taken as they are instead of copied field by
//! field.
//!
//! They are two types, not one, because `result.json` writes `converged` between
//! them and its bytes must stay as they were (results already on disk, and readers
//! that diff them); `--json` has no `converged` and writes the two side by side
//! (docs/design.md §8 lists its fields).

use serde::{Deserialize, Serialize};
use whittle_core::assessment::Assessment;
pub use whittle_core::engine::SearchFlags;
use whittle_core::model::Confidence;

/// How far the result can be trusted: the assessment's rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rating {
    /// `None` when the baseline did not reproduce: there is nothing to rate.
    pub confidence: Option<Confidence>,
    /// Every single-deletion candidate of the final path was tried (the sidecar's
    /// `minimized_complete`).
    pub complete: bool,
}

impl Rating {
    pub fn of(assessment: &Assessment) -> Rating {
        Rating {
            confidence: assessment.confidence,
            complete: assessment.minimized_complete,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{read_result, PendingResult, RunEnd, RunSummary};
    use super::*;

    /// A `result.json` a run wrote before the flags were shared.
    const WRITTEN: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/evidence/2026-12-03_074146_minimize-checkout-npe/result.json"
    ));

    /// The fixture as read through the upgrade of results written before the end was typed.
    fn written() -> PendingResult {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(super::super::RESULT_FILE), WRITTEN).unwrap();
        read_result(dir.path()).unwrap()
    }

    #[test]
    fn a_written_result_reads_as_minimized_and_writes_back_the_same() {
        let pending = written();
        assert_eq!(pending.end, RunEnd::Minimized);
        assert_eq!(pending.rating.confidence, Some(Confidence::High));
        assert!(pending.rating.complete && pending.converged);
        assert!(pending.search.fixed_point_reached && pending.search.final_confirmed);
        assert!(!pending.search.flaky_observed && !pending.search.budget_exhausted);
        let again = serde_json::to_string_pretty(&pending).unwrap();
        assert_eq!(
            serde_json::from_str::<PendingResult>(&again).unwrap(),
            pending
        );
        // Only the typed end replaced the two failure texts; every other line is kept.
        let old_lines: Vec<&str> = WRITTEN
            .lines()
            .filter(|l| !l.contains("capture_failure") && !l.contains("runtime_failure"))
            .collect();
        assert_eq!(again.lines().collect::<Vec<_>>(), old_lines);
    }

    #[test]
    fn the_json_summary_keeps_its_fields_in_their_order() {
        let summary = RunSummary {
            end: RunEnd::Unproven,
            session: "s".into(),
            crash_id: "c1".into(),
            original_path: vec![1, 2, 3],
            minimal_path: vec![1, 3],
            attempts: 7,
            rating: Rating {
                confidence: Some(Confidence::Medium),
                complete: true,
            },
            search: SearchFlags {
                fixed_point_reached: true,
                final_confirmed: false,
                flaky_observed: true,
                budget_exhausted: false,
            },
            target_fingerprint: Some("fp".into()),
            evidence_session: Some("e".into()),
            warnings: vec![crate::result::ResultWarning::Text("w".into())],
            reproves: None,
        };
        let json = serde_json::to_string(&summary).unwrap();
        assert_eq!(
            json,
            r#"{"status":"unproven","session":"s","crash_id":"c1","original_path":[1,2,3],"minimal_path":[1,3],"attempts":7,"confidence":"medium","complete":true,"fixed_point_reached":true,"final_confirmed":false,"flaky_observed":true,"budget_exhausted":false,"target_fingerprint":"fp","evidence_session":"e","warnings":["w"]}"#
        );
        let back: RunSummary = serde_json::from_str(&json).unwrap();
        assert_eq!(back, summary);
    }

    #[test]
    fn a_missing_confidence_reads_as_none_inside_the_flattened_rating() {
        // Results of a baseline that did not reproduce write `"confidence": null`;
        // the shared flags must still read them.
        let mut value = serde_json::to_value(written()).unwrap();
        value["confidence"] = serde_json::Value::Null;
        let pending: PendingResult = serde_json::from_value(value).unwrap();
        assert_eq!(pending.rating.confidence, None);
    }
}
