//! `repro.maestro.yaml`: the minimal path as a Maestro flow (`maestro test` runs it):
//! the config section (`appId`), `---`, `launchApp`, then each step. Maestro types into
//! the focused field, so typing into a named field is a `tapOn` of the field and an
//! `inputText`; typing into the focused field is the `inputText` alone. A step imported
//! from a Maestro selector is written back with its pattern and narrowing. Every value is
//! written as a JSON string, which YAML reads as the same double-quoted string.

use std::fmt::Write;

use whittle_contract::ui::{By, Strategy};

use super::flow_steps::{comment, flow_steps, FlowAction};
use super::repro_md::{path_noun, proof_state};
use super::ExportInput;

pub fn maestro_flow(input: &ExportInput) -> String {
    let mut y = String::new();
    let _ = writeln!(
        y,
        "# Reproduction of {} found by Whittle {} ({}).",
        comment(&input.target_label),
        comment(&input.engine_version),
        proof_state(&input.end)
    );
    let _ = writeln!(
        y,
        "# Original path {:?}, {} {:?}. Run it with: maestro test repro.maestro.yaml",
        input.original_path,
        path_noun(&input.end),
        input.minimal_path
    );
    let _ = writeln!(y, "appId: {}", quoted(&input.package));
    let _ = writeln!(y, "---");
    for step in flow_steps(&input.steps) {
        let _ = writeln!(y, "# {}", step.numbered(&comment(&step.description)));
        match step.action {
            FlowAction::Launch => y.push_str("- launchApp\n"),
            FlowAction::Tap { strategy } => press(&mut y, "tapOn", &strategy),
            FlowAction::LongPress { strategy } => press(&mut y, "longPressOn", &strategy),
            FlowAction::Relaunch { stop_app: true } => y.push_str("- launchApp\n"),
            FlowAction::Relaunch { stop_app: false } => {
                y.push_str("- launchApp:\n    stopApp: false\n")
            }
            FlowAction::Input { strategy, text } => {
                if strategy.by != By::Focused {
                    press(&mut y, "tapOn", &strategy);
                }
                match text {
                    Some(text) => {
                        let _ = writeln!(y, "- inputText: {}", quoted(&text));
                    }
                    None => y.push_str(
                        "# The value typed here is private, so it is not in this file: type it \
                         by hand.\n# - inputText: \"…\"\n",
                    ),
                }
            }
            FlowAction::Back => y.push_str("- back\n"),
            FlowAction::LeftOut(why) => {
                let _ = writeln!(y, "# Left for the human: {}.", comment(&why));
            }
        }
    }
    y
}

/// Maestro matches `text` against the text, hint and accessibility text, so a content
/// description is a `text` selector too.
fn press(y: &mut String, command: &str, strategy: &Strategy) {
    let _ = writeln!(y, "- {command}:");
    for line in maestro_selector(strategy).lines() {
        let _ = writeln!(y, "    {line}");
    }
}

/// The Maestro selector of `strategy`, one `key: value` line each, as a flow's command
/// takes it (and as the inspector copies it).
pub fn maestro_selector(strategy: &Strategy) -> String {
    let mut y = String::new();
    let key = match strategy.by {
        By::Identifier => "id",
        By::Text | By::Label | By::Focused => "text",
    };
    let _ = writeln!(y, "{key}: {}", quoted(&strategy.value));
    if let Some(selector) = &strategy.maestro {
        if let Some(index) = selector.index {
            let _ = writeln!(y, "index: {index}");
        }
        for (name, flag) in [
            ("enabled", selector.enabled),
            ("checked", selector.checked),
            ("selected", selector.selected),
            ("focused", selector.focused),
        ] {
            if let Some(flag) = flag {
                let _ = writeln!(y, "{name}: {flag}");
            }
        }
    }
    y
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}
