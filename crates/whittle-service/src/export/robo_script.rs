//! `repro.robo.json`: the minimal path as a Firebase Robo script (simple format: the list
//! of actions; Robo launches the app itself). Each action carries a `description`; a
//! step whose value is private is a `//` comment line (Robo scripts allow them) and is
//! left for the human.

use serde_json::{json, Value};
use whittle_contract::ui::By;

use super::flow_steps::{comment, flow_steps, FlowAction};
use super::repro_md::{path_noun, proof_state};
use super::ExportInput;

pub fn robo_script(input: &ExportInput) -> String {
    let mut lines: Vec<String> = Vec::new();
    for step in flow_steps(&input.steps) {
        let description = step.numbered(&comment(&step.description));
        let action = match step.action {
            // Robo starts the app before the script.
            FlowAction::Launch => continue,
            FlowAction::Tap { by, value } => json!({
                "eventType": "VIEW_CLICKED",
                "elementDescriptors": [descriptor(by, &value)],
                "description": description,
            }),
            FlowAction::Input {
                by,
                value,
                text: Some(text),
            } => json!({
                "eventType": "VIEW_TEXT_CHANGED",
                "replacementText": text,
                "elementDescriptors": [descriptor(by, &value)],
                "description": description,
            }),
            FlowAction::Input { text: None, .. } => {
                lines.push(format!(
                    "  // {description}: the value typed here is private, so it is not in \
                     this file; type it by hand."
                ));
                continue;
            }
            FlowAction::Back => json!({ "eventType": "PRESSED_BACK", "description": description }),
            FlowAction::LeftOut(why) => {
                lines.push(format!(
                    "  // {description}: left for the human ({}).",
                    comment(&why)
                ));
                continue;
            }
        };
        lines.push(format!("  {action},"));
    }
    // The last action has no trailing comma (comments after it are fine).
    if let Some(last) = lines
        .iter_mut()
        .rev()
        .find(|l| !l.trim_start().starts_with("//"))
    {
        if last.ends_with(',') {
            last.pop();
        }
    }
    let mut text = format!(
        "// Reproduction of {} found by Whittle {} ({}); {} {:?}.\n[\n",
        comment(&input.target_label),
        comment(&input.engine_version),
        proof_state(&input.end),
        path_noun(&input.end),
        input.minimal_path
    );
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("]\n");
    text
}

fn descriptor(by: By, value: &str) -> Value {
    match by {
        By::Identifier => json!({ "resourceId": value }),
        By::Text => json!({ "text": value }),
        By::Label => json!({ "contentDescription": value }),
    }
}
