use std::collections::BTreeMap;
use std::fmt::Write;

use whittle_core::engine::Phase;
use whittle_core::run_end::RunEnd;

use super::manifest::ManifestShotDraft;
use super::redact::{plain_line, safe_block, safe_line};
use super::{ExportInput, FrameRef, ShotLabel, ShotVerdict};

/// Stack lines a ticket shows; the full trace is in the evidence session's logcat.
const STACK_LINES: usize = 60;

/// The human part of the ticket: identity, steps in words (each once), the crash's stack
/// trace, how to verify, confidence and proof, and the screenshots by attempt and verdict.
pub(crate) fn render(
    input: &ExportInput,
    bundle_name: &str,
    shots: &[ManifestShotDraft],
) -> String {
    let mut md = String::new();
    let label = safe_line(&input.target_label);
    let _ = writeln!(md, "# Crash repro: {label}\n");
    if let Some(warning) = input.seal.warning(&input.evidence_session) {
        let _ = writeln!(md, "> {warning}\n");
    }
    identity(&mut md, input);
    steps(&mut md, input, &label);
    stack(&mut md, input);
    verify(&mut md, bundle_name);
    confidence(&mut md, input);
    write_rates(&mut md, &input.rate_lines);
    screenshots(&mut md, input, shots);
    md
}

fn identity(md: &mut String, input: &ExportInput) {
    let _ = writeln!(md, "## App and device\n");
    let _ = writeln!(md, "- App: `{}`", plain_line(&input.package));
    if let Some(process) = &input.side_process {
        let _ = writeln!(
            md,
            "- Crashed in process: `{}` (not the app's main process)",
            plain_line(process)
        );
    }
    if let Some(v) = &input.app_version {
        let _ = writeln!(md, "- App version: {}", plain_line(v));
    }
    let model = input
        .device_name
        .as_deref()
        .map(plain_line)
        .filter(|n| !n.is_empty());
    let device = plain_line(&input.device);
    let _ = match model {
        Some(model) => writeln!(md, "- Device: {model} (`{device}`)"),
        None => writeln!(md, "- Device: `{device}`"),
    };
    let android = input
        .os_version
        .as_deref()
        .map(plain_line)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "not reported by the device server".into());
    let _ = writeln!(md, "- Android version: {android}");
    let fingerprint = input
        .target_fingerprint
        .as_deref()
        .map(plain_line)
        .unwrap_or_else(|| "none (identity from exception, process and top frames)".into());
    let _ = writeln!(md, "- Crash signature: {fingerprint}");
    let _ = writeln!(
        md,
        "- Found by Whittle {}\n",
        plain_line(&input.engine_version)
    );
}

/// Launch once, as step 1 (the plan's own launch entry is that same step, not another
/// one), then every other step once, in order.
fn steps(md: &mut String, input: &ExportInput, label: &str) {
    let _ = writeln!(md, "## Steps to reproduce\n");
    let launch_index = input
        .steps
        .iter()
        .find(|s| s.is_launch())
        .map(|s| format!(" (original step {})", s.index))
        .unwrap_or_default();
    let _ = writeln!(
        md,
        "1. Launch `{}` from a fresh start, force-stopped first{launch_index}.",
        plain_line(&input.package)
    );
    for (n, step) in input.steps.iter().filter(|s| !s.is_launch()).enumerate() {
        let _ = writeln!(
            md,
            "{}. {} (original step {})",
            n + 2,
            safe_line(&step.description),
            step.index
        );
    }
    let _ = writeln!(
        md,
        "\nExpected: no crash. Actual: the app crashes ({label}).\n"
    );
}

fn stack(md: &mut String, input: &ExportInput) {
    let Some(stack) = input
        .target_stack
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    else {
        return;
    };
    let text = safe_block(stack, STACK_LINES);
    // A fence longer than any backtick run inside, so the trace cannot end it early.
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(md, "## Stack trace (the target crash)\n");
    let _ = writeln!(md, "{fence}text\n{text}\n{fence}\n");
}

fn verify(md: &mut String, bundle_name: &str) {
    let _ = writeln!(md, "## Verify\n");
    let _ = writeln!(
        md,
        "Replays the steps above on a connected device with the same app version and \
         counts how often this crash comes back (from the folder that holds this bundle):\n"
    );
    let _ = writeln!(md, "```sh\nwhittle verify {bundle_name} --runs 3\n```\n");
}

/// What the result claims, in the bundle's words, from the run's typed end: only a
/// minimized run (high confidence) is "minimal"; anything less is the shortest
/// candidate seen to reproduce, and a cancelled or failed run says it stopped. Shared
/// by `repro.md`, the ticket and the flows so none words one result differently.
pub(super) fn proof_state(end: &RunEnd) -> &'static str {
    match end {
        RunEnd::Minimized => "minimal / converged",
        RunEnd::Cancelled => {
            "cancelled: shortest reproducing candidate so far, minimality not proven"
        }
        RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. } => {
            "stopped by an infrastructure failure: shortest reproducing candidate so far, \
             minimality not proven"
        }
        RunEnd::Unproven | RunEnd::NotReproduced | RunEnd::Static => {
            "shortest reproducing candidate so far, minimality not proven"
        }
    }
}

/// What the bundle calls the path it exports: "minimal path" only for a minimized run.
pub(super) fn path_noun(end: &RunEnd) -> &'static str {
    if end.is_minimal() {
        "minimal path"
    } else {
        "shortest path so far"
    }
}

/// The heading over the deletions tried: a proof only for a minimized run.
pub(super) fn deletions_heading(end: &RunEnd) -> &'static str {
    if end.is_minimal() {
        "Proof"
    } else {
        "Deletions tried (not a proof)"
    }
}

fn confidence(md: &mut String, input: &ExportInput) {
    let _ = writeln!(md, "## Confidence\n");
    let verdict = proof_state(&input.end);
    let _ = writeln!(
        md,
        "- Confidence: **{}** ({verdict})",
        input.confidence.as_str()
    );
    let _ = writeln!(md, "- Replays run: {}", input.attempts);
    let _ = writeln!(md, "- Original path: {:?}", input.original_path);
    let label = if input.end.is_minimal() {
        "Minimal path"
    } else {
        "Shortest path so far"
    };
    let _ = writeln!(md, "- {label}: {:?}\n", input.minimal_path);
    if !input.proof_lines.is_empty() {
        let _ = writeln!(md, "## {}\n", deletions_heading(&input.end));
        for line in &input.proof_lines {
            let _ = writeln!(md, "- {}", safe_line(line));
        }
        md.push('\n');
    }
}

fn phase_words(phase: Option<Phase>) -> &'static str {
    match phase {
        Some(Phase::Baseline) => "baseline (the whole path)",
        Some(Phase::Bisect) => "bisect",
        Some(Phase::OneByOne) => "one step removed",
        Some(Phase::Audit) => "audit (proof of a needed step)",
        Some(Phase::Confirm) => "final confirmation",
        None => "",
    }
}

/// The steps an attempt replayed as the original session numbers them, launch included.
fn replayed_steps(input: &ExportInput, label: &ShotLabel) -> Vec<u32> {
    let launch = input
        .steps
        .iter()
        .filter(|s| s.is_launch())
        .map(|s| s.index);
    let mut steps: Vec<u32> = launch.chain(label.candidate.iter().copied()).collect();
    steps.sort_unstable();
    steps.dedup();
    steps
}

/// [`replayed_steps`] in words, and whether that is exactly the minimal path.
fn replayed(input: &ExportInput, label: &ShotLabel) -> String {
    let steps = replayed_steps(input, label);
    let list = steps
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if steps == input.minimal_path {
        format!("{list} (the {})", path_noun(&input.end))
    } else {
        list
    }
}

fn screenshots(md: &mut String, input: &ExportInput, shots: &[ManifestShotDraft]) {
    if shots.is_empty() && input.review.is_none() {
        return;
    }
    let _ = writeln!(md, "## Screenshots (masked)\n");
    // The crash screen of the exported path is what a developer wants to see first.
    let crash_screen = shots.iter().rev().find(|s| {
        s.label.as_ref().is_some_and(|l| {
            l.verdict == ShotVerdict::Reproduced && replayed_steps(input, l) == input.minimal_path
        })
    });
    if let Some(shot) = crash_screen {
        let when = match shot.label.as_ref().and_then(|l| l.before_step) {
            Some(step) => format!(" (the screen right before step {step}, the last action)"),
            None => String::new(),
        };
        // "minimal" only for a minimized run, as everywhere in the bundle.
        let _ = writeln!(
            md,
            "The crash on the {}: `{}`{when}. Every screenshot, by attempt:\n",
            path_noun(&input.end),
            shot.path
        );
    }
    if !shots.is_empty() {
        let _ = writeln!(md, "| File | Attempt | Phase | Steps replayed | Verdict |");
        let _ = writeln!(md, "|---|---|---|---|---|");
    }
    for shot in shots {
        match &shot.label {
            Some(label) => {
                let _ = writeln!(
                    md,
                    "| `{}` | {} | {} | {} | {}{} |",
                    shot.path,
                    label.attempt,
                    phase_words(label.phase),
                    replayed(input, label),
                    label.verdict.words(),
                    label
                        .before_step
                        .map(|step| format!("; screen before step {step}"))
                        .unwrap_or_default()
                );
            }
            None => {
                let _ = writeln!(md, "| `{}` | | | | |", shot.path);
            }
        }
    }
    md.push('\n');
    if let Some(review) = &input.review {
        let _ = write!(
            md,
            "Reviewed before export: {} of {} screenshots checked by a person",
            review.reviewed, review.total
        );
        if review.omitted > 0 {
            let _ = write!(md, " · {} omitted", review.omitted);
        }
        if !review.not_reviewed.is_empty() {
            let _ = write!(
                md,
                " · not checked: attempt {}",
                ranges(&review.not_reviewed)
            );
        }
        if !review.not_reviewed_frames.is_empty() {
            let _ = write!(
                md,
                " · filmstrip frames not checked: {}",
                frame_ranges(&review.not_reviewed_frames)
            );
        }
        md.push_str(".\n");
    }
}

/// Frames 1, 2 and 4 of attempt 12 → `2–4 of attempt 12`, one group per attempt.
fn frame_ranges(frames: &[FrameRef]) -> String {
    let mut by_attempt: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for f in frames {
        by_attempt.entry(f.attempt).or_default().push(f.frame);
    }
    by_attempt
        .iter()
        .map(|(attempt, frames)| format!("{} of attempt {attempt}", ranges(frames)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `[2, 3, 4, 7]` → `2–4, 7`.
fn ranges(numbers: &[u32]) -> String {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

/// How often the final path and each deletion reproduced, with Wilson intervals. The
/// lines are Whittle's own words and counts, so they stay readable (`plain_line`).
fn write_rates(md: &mut String, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(md, "## Reproduction rates\n");
    for line in lines {
        let _ = writeln!(md, "- {}", plain_line(line));
    }
    md.push('\n');
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn numbers_read_as_ranges() {
        assert_eq!(ranges(&[2, 3, 4, 7, 9, 10]), "2–4, 7, 9–10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn frames_read_as_ranges_per_attempt() {
        let f = |attempt, frame| super::FrameRef { attempt, frame };
        assert_eq!(
            super::frame_ranges(&[f(12, 4), f(3, 1), f(12, 2), f(12, 3)]),
            "1 of attempt 3; 2–4 of attempt 12"
        );
    }
}
