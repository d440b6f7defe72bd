use std::fmt::Write as _;

use whittle_core::model::Confidence;
use whittle_core::report_text::format_path;

use super::{Rating, RunOutcome, RunStatus, RunSummary, SearchFlags, StaticRun};

/// A static suggestion: never replayed, always low, never written back.
pub(crate) fn outcome(run: &StaticRun) -> RunOutcome {
    let mut report = String::new();
    let _ = writeln!(
        report,
        "ⓘ Static suggestion only, low confidence ({} {})",
        run.session_id, run.crash.crash_id
    );
    let _ = writeln!(report, "  No live run: {}", run.reason);
    let _ = writeln!(
        report,
        "  Original:  {}",
        format_path(&run.crash.repro_path)
    );
    let _ = writeln!(
        report,
        "  Suggested: {}  (not replayed)",
        format_path(&run.suggestion.path)
    );
    let _ = writeln!(report, "  Rationale: {}", run.suggestion.rationale.trim());
    let _ = writeln!(
        report,
        "  Nothing was replayed and nothing will be written back."
    );
    RunOutcome {
        summary: RunSummary {
            status: RunStatus::Static,
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
            warnings: vec![run.reason.clone()],
        },
        report,
        pending: None,
        evidence_dir: None,
        search: None,
        assessment: None,
        static_suggestion: Some(run.suggestion.clone()),
        resumed: Vec::new(),
    }
}
