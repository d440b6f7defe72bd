//! The ticket text (`whittle export --markdown`, the app's *Copy as Markdown*): the
//! steps in words, expected and actual, confidence and proof, device and app identity,
//! and the stack and the Maestro flow folded away, ready to paste into a GitHub or Jira
//! (Markdown) ticket. Nothing in it that a bundle's repro.md would not show.

use std::fmt::Write;

use super::flow_steps::flow_steps;
use super::maestro_flow;
use super::redact::{plain_line, safe_block, safe_line};
use super::repro_md::{deletions_heading, path_noun, proof_state};
use super::ExportInput;

const STACK_LINES: usize = 40;

pub fn ticket_markdown(input: &ExportInput) -> String {
    let mut md = String::new();
    let label = safe_line(&input.target_label);
    let _ = writeln!(md, "### Crash: {label}\n");
    if let Some(warning) = input.seal.warning(&input.evidence_session) {
        let _ = writeln!(md, "> {warning}\n");
    }
    let version = input
        .app_version
        .as_deref()
        .map(|v| format!(" {}", plain_line(v)))
        .unwrap_or_default();
    let device = plain_line(&input.device);
    let device = match input.device_name.as_deref().map(plain_line) {
        Some(model) if !model.is_empty() => format!("{model} (`{device}`)"),
        _ => format!("`{device}`"),
    };
    let android = input
        .os_version
        .as_deref()
        .map(|v| format!(", Android {}", plain_line(v)))
        .unwrap_or_default();
    let process = input
        .side_process
        .as_deref()
        .map(|p| format!(" (in process `{}`)", plain_line(p)))
        .unwrap_or_default();
    let _ = writeln!(
        md,
        "**App:** `{}`{version}{process} · **Device:** {device}{android} · **Signature:** {}\n",
        plain_line(&input.package),
        input
            .target_fingerprint
            .as_deref()
            .map(plain_line)
            .unwrap_or_else(|| "none (exception, process and top frames)".into())
    );
    let _ = writeln!(md, "**Steps to reproduce**\n");
    for step in flow_steps(&input.steps) {
        let _ = writeln!(md, "{}", step.numbered(&safe_line(&step.description)));
    }
    let _ = writeln!(
        md,
        "\n**Expected:** no crash. **Actual:** the app crashes ({label}).\n"
    );
    let verdict = proof_state(&input.end);
    let _ = writeln!(
        md,
        "**Confidence:** {} ({verdict}) · {} replays · original path {:?} → {} {:?}\n",
        input.confidence.as_str(),
        input.attempts,
        input.original_path,
        path_noun(&input.end),
        input.minimal_path
    );
    if !input.proof_lines.is_empty() {
        let _ = writeln!(
            md,
            "<details><summary>{}</summary>\n",
            deletions_heading(&input.end)
        );
        for line in &input.proof_lines {
            let _ = writeln!(md, "- {}", safe_line(line));
        }
        let _ = writeln!(md, "\n</details>\n");
    }
    if let Some(stack) = input
        .target_stack
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        let text = safe_block(stack, STACK_LINES);
        let fence = fence_for(&text);
        let _ = writeln!(
            md,
            "<details><summary>Stack trace</summary>\n\n{fence}text\n{text}\n{fence}\n\n</details>\n"
        );
    }
    let flow = maestro_flow(input);
    let fence = fence_for(&flow);
    let _ = writeln!(
        md,
        "<details><summary>Maestro flow (maestro test)</summary>\n\n{fence}yaml\n{}{fence}\n\n</details>\n",
        flow
    );
    let _ = writeln!(
        md,
        "_Minimized by Whittle {} from a recorded session._",
        plain_line(&input.engine_version)
    );
    md
}

/// A code fence longer than any backtick run inside, so the text cannot end it early.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}
