//! Seed Phase 5 step 5: the terminal/report wording, in English. "Minimal" and
//! "converged" are said only when the fixed point was reached and the final path was
//! confirmed; a ✅ only over a complete, high-confidence proof.

use std::fmt::Write as _;

use crate::assessment::{Assessment, Warning};
use crate::engine::{SearchResult, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};
use crate::model::Confidence;

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
    pub result: &'a SearchResult,
    pub assessment: &'a Assessment,
}

/// Longest failure reason echoed; reasons come from MCP servers and may be verbose.
const MAX_REASON_CHARS: usize = 200;
const INDENT: &str = "            ";

pub fn render_report(input: &ReportInput<'_>) -> String {
    let result = input.result;
    let assessment = input.assessment;
    let mut out = String::new();
    let title = format!("({} {})", input.session, input.crash_id);
    let original = format_path(input.original_path);

    if !result.baseline_reproduced {
        let infrastructure = result.capture_failure.is_some() || result.runtime_failure.is_some();
        let heading = if infrastructure {
            "✗ Minimize run failed before the original path was verified"
        } else {
            "✗ Original path did not reproduce in this run"
        };
        let _ = writeln!(out, "{heading} {title}");
        let _ = writeln!(
            out,
            "  {:<10}{original}  ({})",
            "Original:",
            steps(input.original_path.len())
        );
        if !infrastructure {
            let _ = writeln!(
                out,
                "  Baseline: the full replayable path did not reproduce {}",
                input.target
            );
        }
        write_reasons(&mut out, "Why:", &reasons(input));
        let _ = writeln!(
            out,
            "  No minimal path was produced; nothing will be written back."
        );
        write_report_line(&mut out, input.evidence_report);
        return out;
    }

    let high = assessment.confidence == Some(Confidence::High);
    let named_minimal = assessment.converged && !result.flaky_observed;
    let (heading, label) = if high {
        ("✅ Minimal path found", "Minimal:")
    } else if named_minimal {
        ("⚠ Minimal path found, medium confidence", "Minimal:")
    } else {
        (
            "⚠ Shortest reproducing candidate so far — minimality not proven",
            "Shortest:",
        )
    };
    let minimal = format_path(input.minimal_path);
    let width = original.chars().count().max(minimal.chars().count());
    let (hits, total) = hits_of(result.final_outcomes());
    let _ = writeln!(out, "{heading} {title}");
    let _ = writeln!(
        out,
        "  {:<10}{original:<width$}  ({})",
        "Original:",
        steps(input.original_path.len())
    );
    let _ = writeln!(
        out,
        "  {label:<10}{minimal:<width$}  ({})",
        steps(input.minimal_path.len())
    );
    let _ = writeln!(
        out,
        "  {:<10}{}, final path {hits}/{total}",
        "Proof:",
        proof_summary(result)
    );
    let converged = if assessment.converged {
        "; converged"
    } else {
        ""
    };
    let _ = writeln!(out, "{INDENT}reproduced {}{converged}", input.target);

    if !high {
        let title = if named_minimal {
            "Why medium:"
        } else {
            "Why not proven:"
        };
        write_reasons(&mut out, title, &reasons(input));
    }
    if !assessment.write_back_allowed {
        let _ = writeln!(
            out,
            "  Not written back: the run hit an infrastructure failure, so no result may be saved."
        );
    }
    let table = render_proof_table(result);
    if !table.is_empty() {
        let _ = writeln!(out, "  Deletions:");
        for line in table {
            let _ = writeln!(out, "    {line}");
        }
    }
    write_report_line(&mut out, input.evidence_report);
    out
}

/// One line per kept step: "without step 7: 0/3 reproduced".
pub fn render_proof_table(result: &SearchResult) -> Vec<String> {
    result
        .proof
        .iter()
        .map(|row| {
            let (hits, total) = hits_of(&row.outcomes);
            format!(
                "without step {}: {hits}/{total} reproduced",
                row.removed_step
            )
        })
        .collect()
}

fn proof_summary(result: &SearchResult) -> String {
    let replays = if result.attempts == 1 {
        "1 replay".to_owned()
    } else {
        format!("{} replays", result.attempts)
    };
    let budget = format!("{replays} of max {}", result.max_replays);
    if result.proof.is_empty() {
        return if result.fixed_point_reached {
            format!("{budget}; no action left to delete (the crash needs only the launch)")
        } else {
            budget
        };
    }
    let disproved = result.proof.iter().all(|row| {
        row.outcomes.len() >= NEGATIVE_PROOF_RUNS && row.outcomes.iter().all(|&hit| !hit)
    });
    if result.fixed_point_reached && disproved {
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
        format!("{budget}; every single-deletion candidate {runs}")
    } else {
        let proven = result
            .proof
            .iter()
            .filter(|row| {
                row.outcomes.len() >= NEGATIVE_PROOF_RUNS && row.outcomes.iter().all(|&h| !h)
            })
            .count();
        format!(
            "{budget}; {proven} of {} single-deletion candidates disproved {NEGATIVE_PROOF_RUNS} times",
            result.proof.len()
        )
    }
}

fn reasons(input: &ReportInput<'_>) -> Vec<String> {
    let result = input.result;
    let mut reasons: Vec<String> = input
        .assessment
        .warnings
        .iter()
        // The heading already says so.
        .filter(|warning| **warning != Warning::BaselineNotReproduced)
        .map(|warning| one_line(&warning.to_string()))
        .collect();
    if result.baseline_reproduced {
        if !result.fixed_point_reached {
            reasons.push(format!(
                "fixed-point audit incomplete: not every single deletion has {NEGATIVE_PROOF_RUNS} \
                 consistent non-reproducing replays"
            ));
        }
        if !result.final_confirmed {
            let (hits, total) = hits_of(result.final_outcomes());
            reasons.push(format!(
                "final path reproduced {hits} of {total} replays ({HIGH_CONFIDENCE_RUNS}/{HIGH_CONFIDENCE_RUNS} needed)"
            ));
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

fn write_report_line(out: &mut String, report: Option<&str>) {
    if let Some(path) = report {
        let _ = writeln!(out, "  {:<10}{}", "Report:", one_line(path));
    }
}

fn hits_of(outcomes: &[bool]) -> (usize, usize) {
    (outcomes.iter().filter(|&&hit| hit).count(), outcomes.len())
}

fn steps(count: usize) -> String {
    if count == 1 {
        "1 step".to_owned()
    } else {
        format!("{count} steps")
    }
}

/// `[1,3,7,12]`, the way `repro_path` is written.
pub fn format_path(path: &[u32]) -> String {
    let items: Vec<String> = path.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(","))
}

/// Server-provided text on one terminal line, bounded in length.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() > MAX_REASON_CHARS {
        let cut: String = flat.chars().take(MAX_REASON_CHARS).collect();
        format!("{cut}…")
    } else {
        flat
    }
}
