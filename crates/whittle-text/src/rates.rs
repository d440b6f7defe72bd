//! The rates block of the report (issue 21): how often the final path and each
//! single deletion reproduced, "reproduced k of n (95 % interval a–b %)", and for the
//! `flaky` strategy the crash rate its misses were compared with and the evidence for
//! every removed step. It comes after the seed's own lines, which it never changes.

use whittle_core::engine::{ProofRow, SearchResult};
use whittle_core::rate::{Rate, DEFAULT_CONFIDENCE};

use crate::catalogue::catalogue;
use crate::step_path::format_path;
use crate::Locale;

/// One line for the final path and one per single deletion, at the default confidence:
/// what the evidence report, `result.json` and the export show.
pub fn render_rate_lines_in(
    locale: Locale,
    final_outcomes: &[bool],
    proof: &[ProofRow],
) -> Vec<String> {
    let w = &catalogue(locale).rates;
    let mut lines = vec![format!(
        "{}: {}",
        w.final_path,
        (w.rate)(&Rate::of(final_outcomes, DEFAULT_CONFIDENCE))
    )];
    lines.extend(proof.iter().map(|row| {
        format!(
            "{}: {}",
            (w.without_step)(row.removed_step),
            (w.rate)(&Rate::of(&row.outcomes, DEFAULT_CONFIDENCE))
        )
    }));
    lines
}

/// [`render_rate_lines_in`] in English.
pub fn render_rate_lines(final_outcomes: &[bool], proof: &[ProofRow]) -> Vec<String> {
    render_rate_lines_in(Locale::En, final_outcomes, proof)
}

/// The report block: a title and indented lines (empty when nothing was replayed).
pub(crate) fn rate_block(locale: Locale, result: &SearchResult) -> Vec<String> {
    let w = &catalogue(locale).rates;
    if result.outcome_history.is_empty() {
        return Vec::new();
    }
    let confidence = result
        .statistical
        .map_or(DEFAULT_CONFIDENCE, |proof| proof.confidence());
    let rate = |outcomes: &[bool]| (w.rate)(&Rate::of(outcomes, confidence));
    let mut block = vec![format!("  {}", w.title)];
    let path = if result.baseline_reproduced {
        w.final_path
    } else {
        w.full_path
    };
    block.push(format!("    {path}: {}", rate(result.final_outcomes())));
    let crash_rate = result.crash_rate(confidence);
    if result.statistical.is_some() && result.baseline_reproduced {
        block.push(format!("    {}: {}", w.crash_rate, (w.rate)(&crash_rate)));
    }
    for row in &result.proof {
        let mut line = format!(
            "    {}: {}",
            (w.without_step)(row.removed_step),
            rate(&row.outcomes)
        );
        if result.statistical.is_some() {
            let separated = Rate::of(&row.outcomes, confidence).separated_below(&crash_rate);
            let verdict = if separated { w.below } else { w.not_separated };
            line.push_str(&format!(" — {verdict}"));
        }
        block.push(line);
    }
    if result.statistical.is_some() && result.baseline_reproduced {
        let removed = removed_evidence(result);
        if !removed.is_empty() {
            block.push(format!("  {}", w.removed_title));
            for (step, candidate, outcomes) in removed {
                let text = (w.removed_step)(step, &format_path(&candidate));
                block.push(format!("    {text} {}", rate(&outcomes)));
            }
        }
    }
    block
}

/// For each replayable step that is not kept: the first candidate in the history that
/// reproduced without it (the hit that let the search drop it), with its verdicts. The
/// history's first entry is the live baseline, the full replayable path.
fn removed_evidence(result: &SearchResult) -> Vec<(u32, Vec<u32>, Vec<bool>)> {
    let Some(full_path) = result.outcome_history.first() else {
        return Vec::new();
    };
    full_path
        .candidate
        .iter()
        .filter(|step| !result.current.contains(step))
        .filter_map(|&step| {
            result
                .outcome_history
                .iter()
                .find(|h| h.outcomes.contains(&true) && !h.candidate.contains(&step))
                .map(|h| (step, h.candidate.clone(), h.outcomes.clone()))
        })
        .collect()
}
