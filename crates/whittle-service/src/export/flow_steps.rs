//! The minimal path as the runnable exports (Maestro flow, Robo script) see it: the
//! replay plan's entries, read back from the bundle's redacted copy of them. A value
//! that is private (redacted by the plan, or replaced by `[redacted]` on the way out)
//! is never written: the step says so and is left for the human.

use whittle_contract::ui::{By, Strategy};
use whittle_core::plan::ActionKind;

use super::redact::{redact_json, REDACTED};
use super::ExportStep;

/// The fields of a plan entry (`run::PlanEntry`) the flows need, read leniently: a
/// missing field is absent, not an unreadable step.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Entry {
    /// Read as text: a word Whittle cannot write is a step left out, not an
    /// unreadable one.
    action_type: String,
    strategy: Option<whittle_contract::ui::Strategy>,
    button: Option<String>,
    input_value: Option<String>,
    input_redacted: bool,
    stop_app: Option<bool>,
}

/// One step of the exported flow, numbered as repro.md numbers it.
pub(crate) struct FlowStep {
    /// 1 is the launch; the other steps follow from 2 in path order.
    pub position: usize,
    /// The step of the original session (`None` for a launch the path does not have).
    pub index: Option<u32>,
    pub description: String,
    pub action: FlowAction,
}

impl FlowStep {
    /// `3. Tap "Pay" (original step 7)`: the step's line in every export, with its
    /// description already made safe for where it goes (a comment, Markdown).
    pub fn numbered(&self, description: &str) -> String {
        let original = self
            .index
            .map(|i| format!(" (original step {i})"))
            .unwrap_or_default();
        format!("{}. {description}{original}", self.position)
    }
}

pub(crate) enum FlowAction {
    Launch,
    Tap {
        strategy: Strategy,
    },
    LongPress {
        strategy: Strategy,
    },
    /// `text` is `None` when it is private.
    Input {
        strategy: Strategy,
        text: Option<String>,
    },
    Relaunch {
        stop_app: bool,
    },
    Back,
    /// A step that cannot be written: why, for the comment.
    LeftOut(String),
}

/// The launch first (always: every replay starts with one), then every other step.
pub(crate) fn flow_steps(steps: &[ExportStep]) -> Vec<FlowStep> {
    let launch = steps.iter().find(|s| s.is_launch());
    let mut out = vec![FlowStep {
        position: 1,
        index: launch.map(|s| s.index),
        description: "Launch the app from a fresh start (force-stopped first)".into(),
        action: FlowAction::Launch,
    }];
    for step in steps.iter().filter(|s| !s.is_launch()) {
        out.push(FlowStep {
            position: out.len() + 1,
            index: Some(step.index),
            description: step.description.clone(),
            action: action(step),
        });
    }
    out
}

fn action(step: &ExportStep) -> FlowAction {
    // The last guard before a value leaves in a runnable file: whatever looks private
    // becomes `[redacted]`, which is then left out below.
    let mut action = step.action.clone();
    redact_json(&mut action);
    let Ok(entry) = serde_json::from_value::<Entry>(action) else {
        return FlowAction::LeftOut("its replay data could not be read".into());
    };
    // The focused field has no name; every other locator needs one.
    let element = entry
        .strategy
        .filter(|s| !s.value.is_empty() || s.by == By::Focused);
    match (ActionKind::from_word(&entry.action_type), element) {
        (Some(ActionKind::PressButton), _) if entry.button.as_deref() == Some("BACK") => {
            FlowAction::Back
        }
        (Some(ActionKind::Relaunch), _) => FlowAction::Relaunch {
            stop_app: entry.stop_app.unwrap_or(true),
        },
        (_, Some(strategy)) if strategy.value == REDACTED => {
            FlowAction::LeftOut("its element's name looks private, so it is withheld".into())
        }
        (Some(ActionKind::Tap), Some(strategy)) => FlowAction::Tap { strategy },
        (Some(ActionKind::LongPress), Some(strategy)) => FlowAction::LongPress { strategy },
        (Some(ActionKind::InputText), Some(strategy)) => {
            let text = entry
                .input_value
                .filter(|v| !entry.input_redacted && v != REDACTED);
            FlowAction::Input { strategy, text }
        }
        _ => FlowAction::LeftOut(format!(
            "Whittle has no way to write a {:?} step",
            entry.action_type
        )),
    }
}

/// A comment-safe line: no line breaks, no control characters.
pub(crate) fn comment(text: &str) -> String {
    super::redact::safe_line(text)
}
