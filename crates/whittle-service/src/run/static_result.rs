use whittle_core::model::Confidence;
use whittle_text::{render_static_suggestion, Locale, StaticInput};

use crate::result::ResultWarning;

use super::{Rating, RunEnd, RunOutcome, RunSummary, SearchFlags, StaticRun};

/// A static suggestion: never replayed, always low, never written back. The report is
/// in English, like every run's own report (`localized_report.rs` words it again).
pub(crate) fn outcome(run: &StaticRun) -> RunOutcome {
    let report = render_static_suggestion(
        Locale::En,
        &StaticInput {
            session: &run.session_id,
            crash_id: &run.crash.crash_id,
            reason: Some(&run.reason),
            original_path: &run.crash.repro_path,
            suggested_path: &run.suggestion.path,
            rationale: &run.suggestion.rationale,
        },
    );
    RunOutcome {
        summary: RunSummary {
            end: RunEnd::Static,
            session: run.session_id.clone(),
            crash_id: run.crash.crash_id.clone(),
            original_path: run.crash.repro_path.clone(),
            minimal_path: run.suggestion.path.clone(),
            attempts: 0,
            rating: Rating {
                confidence: Some(Confidence::Low),
                complete: false,
            },
            // Nothing was searched.
            search: SearchFlags::default(),
            target_fingerprint: None,
            evidence_session: None,
            warnings: vec![ResultWarning::Text(run.reason.clone())],
            reproves: None,
        },
        report,
        pending: None,
        evidence_dir: None,
        search: None,
        assessment: None,
        static_suggestion: Some(run.suggestion.clone()),
        resumed: Vec::new(),
        side_process: None,
        // Nothing was replayed: no option changes a static suggestion.
        hint: None,
        started_at: None,
    }
}
