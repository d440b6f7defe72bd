//! A run's human report in the reader's language (the CLI's `LANG`, the app's UI
//! language). The run renders its report in English (that text also goes into the
//! evidence report.md, which is shared); for another language the same facts are
//! rendered again from the outcome with that language's catalogue (`whittle-text`), so
//! the run itself needs no locale. Anything that cannot be rebuilt falls back to the
//! run's own text.

use whittle_text::{
    catalogue, render_report_in, render_reproof_line, render_resumed_line,
    render_static_suggestion, Locale, ReportInput, StaticInput,
};

use super::RunOutcome;
use crate::result::ResultWarning;

/// What the evidence session's report is called (the report server writes it).
const REPORT_FILE: &str = "report.md";

pub fn localized_report(outcome: &RunOutcome, locale: Locale) -> String {
    match locale {
        Locale::En => outcome.report.clone(),
        Locale::ZhCn => live(outcome, locale)
            .or_else(|| static_suggestion(outcome, locale))
            .unwrap_or_else(|| outcome.report.clone()),
    }
}

fn live(outcome: &RunOutcome, locale: Locale) -> Option<String> {
    let (search, assessment) = (outcome.search.as_ref()?, outcome.assessment.as_ref()?);
    let summary = &outcome.summary;
    let pending = outcome.pending.as_ref();
    // Degraded signatures have no fingerprint; the run named the analyzer label instead.
    let target = summary
        .target_fingerprint
        .as_deref()
        .or(pending.map(|p| p.target_label.as_str()))
        .unwrap_or(catalogue(locale).report.unknown_target);
    let report = outcome
        .evidence_dir
        .as_ref()
        .map(|dir| dir.join(REPORT_FILE))
        .filter(|path| path.is_file())
        .map(|path| path.display().to_string());
    let mut text = render_report_in(
        locale,
        &ReportInput {
            session: &summary.session,
            crash_id: &summary.crash_id,
            original_path: &summary.original_path,
            minimal_path: &summary.minimal_path,
            target,
            evidence_report: report.as_deref(),
            process: outcome.side_process.as_deref(),
            result: search,
            assessment,
        },
    );
    if let Some(evidence) = &summary.reproves {
        text.push_str(&render_reproof_line(locale, evidence));
    }
    for mark in &outcome.resumed {
        text.push_str(&render_resumed_line(locale, &mark.at, mark.after_attempts));
    }
    Some(text)
}

/// A static suggestion: never replayed, always low, never written back.
fn static_suggestion(outcome: &RunOutcome, locale: Locale) -> Option<String> {
    let suggestion = outcome.static_suggestion.as_ref()?;
    let summary = &outcome.summary;
    Some(render_static_suggestion(
        locale,
        &StaticInput {
            session: &summary.session,
            crash_id: &summary.crash_id,
            reason: summary.warnings.first().and_then(|w| match w {
                ResultWarning::Text(reason) => Some(reason.as_str()),
                ResultWarning::Typed(_) => None,
            }),
            original_path: &summary.original_path,
            suggested_path: &suggestion.path,
            rationale: &suggestion.rationale,
        },
    ))
}
