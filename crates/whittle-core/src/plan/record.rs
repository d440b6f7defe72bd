//! A step's replay data, read from the allowlisted `notes.replay` fields or, for
//! legacy sessions, from the text forms documented in `legacy`.

use serde_json::{Map, Value};

use crate::model::Step;

use super::gap::LocatorGap;
use super::legacy;
use super::locator::MaestroSelector;

/// The typed value as recorded: a string, or something else that must not be
/// coerced into one (the seed requires `typeof input_value == "string"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InputValue {
    Text(String),
    NotText,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct StepRecord {
    /// True when the data came from a `notes.replay` object.
    pub new_format: bool,
    /// Lower-cased.
    pub action_type: Option<String>,
    pub element_key: Option<String>,
    pub input_value: Option<InputValue>,
    pub button: Option<String>,
    pub input_redacted: bool,
    /// The Maestro selector the element key came from (`notes.replay.maestro`):
    /// absent, read, or present but not a selector.
    pub maestro: SelectorField,
    /// `notes.replay.stop_app` of a relaunch: `false` keeps a running app.
    pub stop_app: bool,
    /// `notes.replay.input_withheld`: an import did not store the value in doubt.
    pub input_withheld: bool,
    /// `notes.replay.input_unknown`: the variable whose value the flow types and Whittle
    /// does not know ("" for a script's result).
    pub input_unknown: Option<String>,
    /// `notes.replay.locator_gap`: what the flow tells its element apart by that no
    /// locator can say. Present but unreadable still means the key alone is not enough.
    pub locator_gap: GapField,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum GapField {
    #[default]
    Absent,
    Read(LocatorGap),
    Unreadable,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum SelectorField {
    #[default]
    Absent,
    Read(MaestroSelector),
    Unreadable,
}

impl StepRecord {
    pub(crate) fn read(step: &Step) -> StepRecord {
        match replay_object(&step.notes) {
            Some(replay) => from_replay(&replay, &step.action),
            None => from_legacy(step),
        }
    }

    pub(crate) fn input_text(&self) -> Option<&str> {
        match &self.input_value {
            Some(InputValue::Text(text)) => Some(text),
            _ => None,
        }
    }
}

fn replay_object(notes: &str) -> Option<Map<String, Value>> {
    let trimmed = notes.trim_start();
    if !trimmed.starts_with('{') {
        return None;
    }
    match serde_json::from_str::<Value>(trimmed).ok()? {
        Value::Object(mut notes) => match notes.remove("replay")? {
            Value::Object(replay) => Some(replay),
            _ => None,
        },
        _ => None,
    }
}

fn from_replay(replay: &Map<String, Value>, action: &str) -> StepRecord {
    let text = |name: &str| replay.get(name).and_then(Value::as_str).map(str::to_owned);
    let action_type = text("action_type")
        .or_else(|| legacy::parse_action(action).0)
        .map(|a| a.to_ascii_lowercase());
    let input_value = match replay.get("input_value") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(InputValue::Text(s.clone())),
        Some(_) => Some(InputValue::NotText),
    };
    StepRecord {
        new_format: true,
        action_type,
        element_key: text("element_key"),
        input_value,
        button: text("button"),
        input_redacted: replay.get("input_redacted").is_some_and(is_truthy),
        maestro: match replay.get("maestro") {
            None | Some(Value::Null) => SelectorField::Absent,
            Some(value) => serde_json::from_value(value.clone())
                .map_or(SelectorField::Unreadable, SelectorField::Read),
        },
        stop_app: replay.get("stop_app") != Some(&Value::Bool(false)),
        input_withheld: replay.get("input_withheld").is_some_and(is_truthy),
        input_unknown: text("input_unknown"),
        locator_gap: match replay.get("locator_gap") {
            None | Some(Value::Null) => GapField::Absent,
            Some(value) => {
                serde_json::from_value(value.clone()).map_or(GapField::Unreadable, GapField::Read)
            }
        },
    }
}

/// Redaction markers err towards "redacted": `true`, `"true"`, or a non-zero number.
fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::String(s) => s.eq_ignore_ascii_case("true"),
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        _ => false,
    }
}

fn from_legacy(step: &Step) -> StepRecord {
    let (action_type, action_button) = legacy::parse_action(&step.action);
    let input_value = legacy::field(&step.notes, "input_value")
        .or_else(|| legacy::quoted_value(&step.action))
        .map(InputValue::Text);
    StepRecord {
        new_format: false,
        action_type,
        element_key: legacy::field(&step.notes, "element_key"),
        input_value,
        button: legacy::field(&step.notes, "button").or(action_button),
        input_redacted: false,
        maestro: SelectorField::Absent,
        stop_app: true,
        ..StepRecord::default()
    }
}
