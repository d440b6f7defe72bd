//! A run's human report in the reader's language (the CLI's `LANG`, the app's UI
//! language). The run renders its report in English (that text also goes into the
//! evidence report.md, which is shared); for another language the same facts are
//! rendered again from the outcome, so the run itself needs no locale. Anything that
//! cannot be rebuilt falls back to the run's own text.

use std::fmt::Write as _;

use super::RunOutcome;
use whittle_core::report_text::{format_path, render_report_in, Locale, ReportInput};

/// What the evidence session's report is called (the report server writes it).
const REPORT_FILE: &str = "report.md";

pub fn localized_report(outcome: &RunOutcome, locale: Locale) -> String {
    match locale {
        Locale::En => outcome.report.clone(),
        Locale::ZhCn => live_zh(outcome)
            .or_else(|| static_zh(outcome))
            .unwrap_or_else(|| outcome.report.clone()),
    }
}

fn live_zh(outcome: &RunOutcome) -> Option<String> {
    let (search, assessment) = (outcome.search.as_ref()?, outcome.assessment.as_ref()?);
    let summary = &outcome.summary;
    let pending = outcome.pending.as_ref();
    // Degraded signatures have no fingerprint; the run named the analyzer label instead.
    let target = summary
        .target_fingerprint
        .as_deref()
        .or(pending.map(|p| p.target_label.as_str()))
        .unwrap_or("目标崩溃");
    let report = outcome
        .evidence_dir
        .as_ref()
        .map(|dir| dir.join(REPORT_FILE))
        .filter(|path| path.is_file())
        .map(|path| path.display().to_string());
    let mut text = render_report_in(
        Locale::ZhCn,
        &ReportInput {
            session: &summary.session,
            crash_id: &summary.crash_id,
            original_path: &summary.original_path,
            minimal_path: &summary.minimal_path,
            target,
            evidence_report: report.as_deref(),
            result: search,
            assessment,
        },
    );
    for mark in &outcome.resumed {
        let _ = writeln!(
            text,
            "  续跑：{}，此前已记录 {} 次 replay（中断后继续，已记录的不再重放）",
            mark.at, mark.after_attempts
        );
    }
    Some(text)
}

/// A static suggestion: never replayed, always low, never written back.
fn static_zh(outcome: &RunOutcome) -> Option<String> {
    let suggestion = outcome.static_suggestion.as_ref()?;
    let summary = &outcome.summary;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ⓘ 仅静态建议，置信度低 ({} {})",
        summary.session, summary.crash_id
    );
    if let Some(reason) = summary.warnings.first() {
        let _ = writeln!(out, "  无现场回放：{}", one_line(reason));
    }
    let _ = writeln!(out, "  原始:     {}", format_path(&summary.original_path));
    let _ = writeln!(
        out,
        "  建议:     {}  (未回放)",
        format_path(&suggestion.path)
    );
    let _ = writeln!(out, "  依据:     {}", one_line(suggestion.rationale.trim()));
    let _ = writeln!(out, "  未回放任何步骤，也不会写回任何内容。");
    Some(out)
}

/// Server-provided text on one terminal line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
