use std::fmt::Write;

use super::redact::{plain_line, safe_line};
use super::ExportInput;

/// The human part of the ticket: steps in words, confidence, proof, identity.
pub(crate) fn render(input: &ExportInput, screenshot_names: &[String]) -> String {
    let mut md = String::new();
    let label = safe_line(&input.target_label);
    let _ = writeln!(md, "# Crash repro: {label}\n");
    let _ = writeln!(md, "## App and device\n");
    let _ = writeln!(md, "- App: `{}`", plain_line(&input.package));
    if let Some(v) = &input.app_version {
        let _ = writeln!(md, "- App version: {}", plain_line(v));
    }
    let _ = writeln!(md, "- Device: `{}`", plain_line(&input.device));
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

    let _ = writeln!(md, "## Steps to reproduce\n");
    let _ = writeln!(
        md,
        "1. Launch `{}` from a fresh start.",
        plain_line(&input.package)
    );
    for (n, step) in input.steps.iter().enumerate() {
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

    let _ = writeln!(md, "## Confidence\n");
    let verdict = if input.complete {
        "minimal / converged"
    } else {
        "shortest reproducing candidate so far, minimality not proven"
    };
    let _ = writeln!(
        md,
        "- Confidence: **{}** ({verdict})",
        input.confidence.as_str()
    );
    let _ = writeln!(md, "- Replays run: {}", input.attempts);
    let _ = writeln!(md, "- Original path: {:?}", input.original_path);
    let _ = writeln!(md, "- Minimal path: {:?}\n", input.minimal_path);
    if !input.proof_lines.is_empty() {
        let _ = writeln!(md, "## Proof\n");
        for line in &input.proof_lines {
            let _ = writeln!(md, "- {}", safe_line(line));
        }
        md.push('\n');
    }
    write_rates(&mut md, &input.rate_lines);
    if !screenshot_names.is_empty() {
        let _ = writeln!(md, "## Screenshots (masked)\n");
        for name in screenshot_names {
            let _ = writeln!(md, "- `{name}`");
        }
    }
    md
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
