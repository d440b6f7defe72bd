//! What a run reports: the `--json` object ([`RunSummary`]) the CLI prints and the
//! window shows, headed by the run's typed end (`RunEnd`, computed once in the core),
//! which an exit code is picked from. A live run's summary is read off its result
//! ([`RunSummary::of`]), never built beside it, so the two cannot drift.

use serde::{Deserialize, Serialize};
use whittle_core::run_end::RunEnd;

use super::{PendingResult, Rating, SearchFlags};

/// docs/design.md §8's `--json` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunSummary {
    /// Flattened: `status` (and `cause` for a failure) stay the object's first fields.
    #[serde(flatten)]
    pub end: RunEnd,
    pub session: String,
    pub crash_id: String,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub attempts: u32,
    #[serde(flatten)]
    pub rating: Rating,
    #[serde(flatten)]
    pub search: SearchFlags,
    pub target_fingerprint: Option<String>,
    pub evidence_session: Option<String>,
    pub warnings: Vec<super::ResultWarning>,
    /// The run (its evidence session) this one re-proved here, starting from its
    /// minimal path; absent for an ordinary run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub reproves: Option<String>,
}

impl RunSummary {
    /// The summary of a live run's result (`result.json`): every field the two share
    /// is the result's own. Its warnings are the result's (the assessment's); a run
    /// that has just finished adds the ones it told along the way around them.
    ///
    /// The result is taken apart field by field, with no `..`: a field added to
    /// [`PendingResult`] does not compile until it is said here whether the summary
    /// shows it. (The two stay two types: `result.json`'s bytes, with its own key
    /// names and order, must read and write as before, `flags.rs`.)
    pub fn of(result: &PendingResult) -> RunSummary {
        let PendingResult {
            end,
            // A front end reads it beside the summary (the result view's `purpose`).
            purpose: _,
            original_session,
            original_session_dir: _,
            crash_id,
            evidence_session,
            original_path,
            minimal_path,
            attempts,
            max_replays: _,
            rating,
            converged: _,
            search,
            write_back_allowed: _,
            warnings,
            proof: _,
            proof_lines: _,
            final_outcomes: _,
            target: _,
            target_fingerprint,
            target_label: _,
            package: _,
            app_version: _,
            device: _,
            device_name: _,
            os_version: _,
            target_stack: _,
            crash_process: _,
            minimal_plan: _,
            screenshots: _,
            resumed: _,
            reproves,
        } = result;
        RunSummary {
            end: end.clone(),
            session: original_session.clone(),
            crash_id: crash_id.clone(),
            original_path: original_path.clone(),
            minimal_path: minimal_path.clone(),
            attempts: *attempts,
            rating: *rating,
            search: *search,
            target_fingerprint: target_fingerprint.clone(),
            evidence_session: Some(evidence_session.clone()),
            warnings: warnings.clone(),
            reproves: reproves.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `result.json` as a run wrote it.
    const WRITTEN: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/evidence/2026-12-03_074146_minimize-checkout-npe/result.json"
    ));

    #[test]
    fn a_result_s_summary_is_the_result_s_own_fields() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(super::super::RESULT_FILE), WRITTEN).unwrap();
        let result = super::super::read_result(dir.path()).unwrap();
        let summary = RunSummary::of(&result);
        assert_eq!(summary.end, result.end);
        assert_eq!(summary.session, result.original_session);
        assert_eq!(summary.crash_id, result.crash_id);
        assert_eq!(summary.original_path, result.original_path);
        assert_eq!(summary.minimal_path, result.minimal_path);
        assert_eq!(summary.attempts, result.attempts);
        assert_eq!(summary.rating, result.rating);
        assert_eq!(summary.search, result.search);
        assert_eq!(summary.target_fingerprint, result.target_fingerprint);
        assert_eq!(
            summary.evidence_session.as_deref(),
            Some(result.evidence_session.as_str())
        );
        assert_eq!(summary.warnings, result.warnings);
        // The two files keep their own key names: `--json` says `session`.
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["session"], serde_json::json!(result.original_session));
        assert!(json.get("original_session").is_none());
    }
}
