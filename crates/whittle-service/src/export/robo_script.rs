//! `repro.robo.json`: the minimal path as a Firebase Robo script (simple format: the list
//! of actions; Robo launches the app itself). Each action carries a `description`; a
//! step whose value is private is a `//` comment line (Robo scripts allow them) and is
//! left for the human.

use serde_json::{json, Value};
use whittle_contract::ui::{By, Strategy};

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
            FlowAction::Tap { strategy } | FlowAction::LongPress { strategy }
                if robo_descriptor(&strategy).is_none() =>
            {
                lines.push(left_out(&description, &strategy));
                continue;
            }
            FlowAction::Input {
                strategy,
                text: Some(_),
            } if robo_descriptor(&strategy).is_none() => {
                lines.push(left_out(&description, &strategy));
                continue;
            }
            FlowAction::Tap { strategy } => json!({
                "eventType": "VIEW_CLICKED",
                "elementDescriptors": [robo_descriptor(&strategy)],
                "description": description,
            }),
            FlowAction::LongPress { strategy } => json!({
                "eventType": "VIEW_LONG_CLICKED",
                "elementDescriptors": [robo_descriptor(&strategy)],
                "description": description,
            }),
            FlowAction::Input {
                strategy,
                text: Some(text),
            } => json!({
                "eventType": "VIEW_TEXT_CHANGED",
                "replacementText": text,
                "elementDescriptors": [robo_descriptor(&strategy)],
                "description": description,
            }),
            FlowAction::Relaunch { .. } => {
                lines.push(format!(
                    "  // {description}: left for the human (a Robo script cannot start the \
                     app again; relaunch it here)."
                ));
                continue;
            }
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

/// The element as a Robo descriptor, when Robo can name it: Robo compares exact values,
/// so a Maestro pattern is written only when it is plain text with no narrowing, and the
/// focused field (which Robo cannot name) not at all. Maestro matches a text ignoring
/// case ("add to CART" taps "Add to cart"), so its text is written as Robo's
/// `textRegex` with the same flag, `(?i)`: plain text means the same to Java's regular
/// expressions (a `.` matches any character in both), and Whittle's Robo import reads
/// it back as that Maestro text.
pub fn robo_descriptor(strategy: &Strategy) -> Option<Value> {
    let value = &strategy.value;
    if let Some(selector) = &strategy.maestro {
        let plain = value
            .chars()
            .all(|c| c.is_alphanumeric() || " _-:/.".contains(c));
        if !plain || *selector != Default::default() {
            return None;
        }
        if strategy.by == By::Text {
            return Some(json!({ "textRegex": format!("(?i){value}") }));
        }
    }
    match strategy.by {
        By::Identifier => Some(json!({ "resourceId": value })),
        By::Text => Some(json!({ "text": value })),
        By::Label => Some(json!({ "contentDescription": value })),
        By::Focused => None,
    }
}

/// The comment for a step whose element Robo cannot name.
fn left_out(description: &str, strategy: &Strategy) -> String {
    let why = if strategy.by == By::Focused {
        "Robo types into an element it names; this step types where the focus is"
    } else {
        "its Maestro selector has no Robo equivalent"
    };
    format!("  // {description}: left for the human ({why}).")
}

#[cfg(test)]
mod tests {
    use whittle_core::plan::MaestroSelector;

    use super::*;

    fn maestro_text(value: &str, selector: MaestroSelector) -> Strategy {
        Strategy {
            maestro: Some(selector),
            ..Strategy::new(By::Text, value)
        }
    }

    #[test]
    fn a_maestro_text_stays_case_insensitive_and_reads_back_as_itself() {
        let written = robo_descriptor(&maestro_text("add to CART", Default::default()));
        assert_eq!(written, Some(json!({ "textRegex": "(?i)add to CART" })));
        let script = format!(
            r#"[{{"eventType": "VIEW_CLICKED", "elementDescriptors": [{}]}}]"#,
            written.unwrap()
        );
        let back = whittle_core::import::robo::parse("s.json", script.as_bytes()).unwrap();
        assert_eq!(
            back.steps[1].action,
            whittle_core::import::ImportedAction::Tap {
                element: whittle_core::import::ElementKey::Maestro {
                    by_id: false,
                    pattern: "add to CART".into(),
                    selector: Default::default(),
                }
            }
        );
        // Whittle's own texts are exact, and so is Robo's `text`.
        assert_eq!(
            robo_descriptor(&Strategy::new(By::Text, "Add to cart")),
            Some(json!({ "text": "Add to cart" }))
        );
        // A pattern or a narrowed selector has no Robo equivalent: left for the human.
        assert_eq!(
            robo_descriptor(&maestro_text("Add.*", Default::default())),
            None
        );
        let second = MaestroSelector {
            index: Some(1),
            ..Default::default()
        };
        assert_eq!(robo_descriptor(&maestro_text("Add", second)), None);
    }
}
