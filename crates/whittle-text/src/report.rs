//! Phase 5 (docs/design.md §13) step 5: the report of a live run, laid out once for
//! every language (the words are the catalogue's). The heading is the run's typed end
//! (`RunEnd`): "minimal" and a ✅ only for a minimized run, proven with high
//! confidence; "converged" only when the fixed point was reached and the final path
//! was confirmed. Every language states the same facts; only
//! the words differ.

use std::fmt::Write as _;

use whittle_core::assessment::{Assessment, Warning};
use whittle_core::engine::{SearchResult, NEGATIVE_PROOF_RUNS};
use whittle_core::run_end::RunEnd;

use crate::catalogue::{catalogue, ReportWords};
use crate::rates;
use crate::step_path::format_path;
use crate::Locale;

/// Everything the report block shows. Paths are step indexes as in `repro_path`
/// (launch setup included), never step contents, so no input value can leak.
#[derive(Debug, Clone, Copy)]
pub struct ReportInput<'a> {
    pub session: &'a str,
    pub crash_id: &'a str,
    pub original_path: &'a [u32],
    pub minimal_path: &'a [u32],
    /// The target fingerprint, or the analyzer label when the signature is degraded.
    pub target: &'a str,
    /// Where the evidence report was written, if it was.
    pub evidence_report: Option<&'a str>,
    /// The process that crashed, when it is not the app's main one
    /// (`com.acme.notes:sync`): the title says so.
    pub process: Option<&'a str>,
    pub result: &'a SearchResult,
    pub assessment: &'a Assessment,
}

/// Longest failure reason echoed; reasons come from MCP servers and may be verbose.
const MAX_REASON_CHARS: usize = 200;
/// Terminal columns of a label ("Original:" and its padding), so values line up.
const LABEL_COLUMNS: usize = 10;

/// The report in English (the wording existing callers and report.md use).
pub fn render_report(input: &ReportInput<'_>) -> String {
    render_report_in(Locale::En, input)
}

/// The report in `locale`.
pub fn render_report_in(locale: Locale, input: &ReportInput<'_>) -> String {
    let w = &catalogue(locale).report;
    let result = input.result;
    let assessment = input.assessment;
    let mut out = String::new();
    let title = match input.process {
        Some(process) => format!(
            "({} {}, {})",
            input.session,
            input.crash_id,
            (w.in_process)(process)
        ),
        None => format!("({} {})", input.session, input.crash_id),
    };
    let original = format_path(input.original_path);

    let end = &assessment.end;
    if !result.baseline_reproduced {
        let heading = match end {
            RunEnd::Cancelled => w.cancelled_before_baseline,
            RunEnd::NotReproduced => w.baseline_not_reproduced,
            _ => w.failed_before_baseline,
        };
        let _ = writeln!(out, "{heading} {title}");
        let _ = writeln!(
            out,
            "  {}{original}  ({})",
            label(w.original),
            (w.steps)(input.original_path.len())
        );
        if *end == RunEnd::NotReproduced {
            let _ = writeln!(
                out,
                "  {}{}",
                label(w.baseline),
                (w.baseline_missed)(input.target)
            );
        }
        write_reasons(&mut out, w.why, &reasons(w, input));
        let _ = writeln!(out, "  {}", w.nothing_produced);
        write_lines(&mut out, &rates::rate_block(locale, result));
        write_report_line(&mut out, w, input.evidence_report);
        return out;
    }

    // Only a minimized end (high confidence) is called minimal; every other end of a
    // reproducing run shows its shortest path so far (docs/design.md §3, "Wording").
    let (heading, kept) = match end {
        RunEnd::Minimized => (w.minimal_high, w.minimal),
        RunEnd::Cancelled => (w.cancelled_shortest, w.shortest),
        RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. } => {
            (w.failed_shortest, w.shortest)
        }
        RunEnd::Unproven | RunEnd::NotReproduced | RunEnd::Static => {
            (w.shortest_unproven, w.shortest)
        }
    };
    let minimal = format_path(input.minimal_path);
    let width = original.chars().count().max(minimal.chars().count());
    let (hits, total) = hits_of(result.final_outcomes());
    let _ = writeln!(out, "{heading} {title}");
    let _ = writeln!(
        out,
        "  {}{original:<width$}  ({})",
        label(w.original),
        (w.steps)(input.original_path.len())
    );
    let _ = writeln!(
        out,
        "  {}{minimal:<width$}  ({})",
        label(kept),
        (w.steps)(input.minimal_path.len())
    );
    let _ = writeln!(
        out,
        "  {}{}",
        label(w.proof),
        (w.proof_line)(&proof_summary(w, result), hits, total)
    );
    let indent = " ".repeat(2 + LABEL_COLUMNS);
    let _ = writeln!(
        out,
        "{indent}{}",
        (w.reproduced_target)(input.target, assessment.converged)
    );

    if !end.is_minimal() {
        write_reasons(&mut out, w.why_not_proven, &reasons(w, input));
    }
    if !end.may_write_back() {
        let cancelled = *end == RunEnd::Cancelled;
        let _ = writeln!(out, "  {}", (w.not_written_back)(cancelled));
    }
    let table = render_proof_table_in(locale, result);
    if !table.is_empty() {
        let _ = writeln!(out, "  {}", w.deletions);
        for line in table {
            let _ = writeln!(out, "    {line}");
        }
    }
    write_lines(&mut out, &rates::rate_block(locale, result));
    write_report_line(&mut out, w, input.evidence_report);
    out
}

fn write_lines(out: &mut String, lines: &[String]) {
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}

/// One line per kept step, in English: "without step 7: 0/3 reproduced".
pub fn render_proof_table(result: &SearchResult) -> Vec<String> {
    render_proof_table_in(Locale::En, result)
}

/// One line per kept step, in `locale`.
pub fn render_proof_table_in(locale: Locale, result: &SearchResult) -> Vec<String> {
    let w = &catalogue(locale).report;
    result
        .proof
        .iter()
        .map(|row| {
            let (hits, total) = hits_of(&row.outcomes);
            (w.without_step)(row.removed_step, hits, total)
        })
        .collect()
}

fn proof_summary(w: &ReportWords, result: &SearchResult) -> String {
    let budget = (w.budget)(result.attempts, result.max_replays);
    if result.proof.is_empty() {
        return if result.flags.fixed_point_reached {
            format!("{budget}{}", w.only_launch_left)
        } else {
            budget
        };
    }
    let disproved = result.proof.iter().all(|row| {
        row.outcomes.len() >= NEGATIVE_PROOF_RUNS && row.outcomes.iter().all(|&hit| !hit)
    });
    if result.flags.fixed_point_reached && disproved {
        let fewest = result
            .proof
            .iter()
            .map(|r| r.outcomes.len())
            .min()
            .unwrap_or(0);
        let most = result
            .proof
            .iter()
            .map(|r| r.outcomes.len())
            .max()
            .unwrap_or(0);
        let runs = if fewest == most {
            format!("0/{fewest}")
        } else {
            format!("0/{fewest}+")
        };
        format!("{budget}{}", (w.every_deletion)(&runs))
    } else {
        let proven = result
            .proof
            .iter()
            .filter(|row| {
                row.outcomes.len() >= NEGATIVE_PROOF_RUNS && row.outcomes.iter().all(|&h| !h)
            })
            .count();
        format!("{budget}{}", (w.some_deletions)(proven, result.proof.len()))
    }
}

fn reasons(w: &ReportWords, input: &ReportInput<'_>) -> Vec<String> {
    let result = input.result;
    let mut reasons: Vec<String> = input
        .assessment
        .warnings
        .iter()
        // The heading already says so.
        .filter(|warning| **warning != Warning::BaselineNotReproduced)
        .map(|warning| one_line(&(w.warning)(warning)))
        .collect();
    if let Some(stop) = &result.stop {
        reasons.push(one_line(&(w.stop)(stop)));
    }
    if result.baseline_reproduced {
        if !result.flags.fixed_point_reached {
            reasons.push((w.audit_incomplete)());
        }
        if !result.flags.final_confirmed {
            let (hits, total) = hits_of(result.final_outcomes());
            reasons.push((w.final_short)(hits, total));
        }
    }
    reasons
}

fn write_reasons(out: &mut String, title: &str, reasons: &[String]) {
    if reasons.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {title}");
    for reason in reasons {
        let _ = writeln!(out, "    - {reason}");
    }
}

fn write_report_line(out: &mut String, w: &ReportWords, report: Option<&str>) {
    if let Some(path) = report {
        let _ = writeln!(out, "  {}{}", label(w.report), one_line(path));
    }
}

/// A label padded to `LABEL_COLUMNS` terminal columns; a CJK character takes two.
fn label(text: &str) -> String {
    let columns: usize = text.chars().map(columns_of).sum();
    format!(
        "{text}{}",
        " ".repeat(LABEL_COLUMNS.saturating_sub(columns).max(1))
    )
}

/// East Asian wide and fullwidth characters take two columns (the ranges the labels use).
fn columns_of(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F => {
            2
        }
        0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 => 2,
        _ => 1,
    }
}

fn hits_of(outcomes: &[bool]) -> (usize, usize) {
    (outcomes.iter().filter(|&&hit| hit).count(), outcomes.len())
}

/// A line under the verdict of a resumed run: when it was resumed, and after how many
/// recorded attempts (ending in a newline, like every line of the report).
pub fn render_resumed_line(locale: Locale, at: &str, after_attempts: u32) -> String {
    let w = &catalogue(locale).report;
    format!("  {}\n", (w.resumed)(at, after_attempts))
}

/// A line under the verdict of a run that re-proved the run of `evidence` here
/// (ending in a newline, like every line of the report).
pub fn render_reproof_line(locale: Locale, evidence: &str) -> String {
    let w = &catalogue(locale).report;
    format!("  {}\n", (w.reproves)(evidence))
}

/// Server-provided text on one terminal line, bounded in length.
fn one_line(text: &str) -> String {
    let line = flat(text);
    if line.chars().count() > MAX_REASON_CHARS {
        let cut: String = line.chars().take(MAX_REASON_CHARS).collect();
        format!("{cut}…")
    } else {
        line
    }
}

/// Server-provided text on one terminal line: control characters become spaces.
pub(crate) fn flat(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
