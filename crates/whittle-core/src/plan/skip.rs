use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a step of the path cannot be replayed live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum SkipReason {
    InputRedacted,
    Sensitive,
    NoElementKey,
    UnstableKey {
        key_kind: String,
    },
    UnsupportedAction {
        action_type: String,
    },
    MissingInputValue,
    UnsupportedButton {
        button: String,
    },
    /// The step's Maestro selector cannot be matched as Maestro would (a regular
    /// expression only Java's engine evaluates, or a selector Whittle cannot read).
    SelectorNotEvaluable,
    /// An imported flow typed a value that no fact says is private or plain, and that is
    /// not obviously harmless: it was not stored.
    InputWithheld,
    /// The flow types a variable's value and the variable has none (`variable` empty:
    /// the text is computed by JavaScript Whittle does not run).
    UnknownInput {
        variable: String,
    },
    /// The flow finds its element only by its position in a list.
    ListPosition {
        element: String,
        position: u32,
        list: String,
    },
    /// The flow tells its element apart from others with the same key only by its
    /// ancestors (`ancestors` empty when the session does not say which).
    AncestorsNeeded {
        element: String,
        ancestors: String,
    },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::InputRedacted => f.write_str(
                "Its input was redacted when it was recorded; Whittle never replays or guesses it.",
            ),
            SkipReason::Sensitive => f.write_str(
                "It involves private data (a password, code, card or personal details), \
                 so Whittle never replays it.",
            ),
            SkipReason::NoElementKey => f.write_str(
                "No element was recorded for it, so Whittle cannot tell what to act on.",
            ),
            SkipReason::UnstableKey { key_kind } => write!(
                f,
                "Its element was recorded only by {key_kind}, which does not identify it reliably."
            ),
            SkipReason::UnsupportedAction { action_type } if action_type.is_empty() => {
                f.write_str("The recording does not say what action this step was.")
            }
            SkipReason::UnsupportedAction { action_type } => write!(
                f,
                "Whittle cannot replay “{action_type}” actions (only taps, long presses, typing text, relaunches and BACK)."
            ),
            SkipReason::MissingInputValue => {
                f.write_str("The text that was typed was not recorded.")
            }
            SkipReason::UnsupportedButton { button } if button.is_empty() => {
                f.write_str("The recording does not say which button was pressed.")
            }
            SkipReason::SelectorNotEvaluable => f.write_str(
                "Its Maestro selector cannot be matched here as Maestro matches it (a regular \
                 expression only Java's engine evaluates), so Whittle does not guess.",
            ),
            SkipReason::InputWithheld => f.write_str(
                "Whittle did not keep the text typed here: nothing about its field says \
                 whether it is private, and it is not obviously harmless. Whittle never \
                 replays or guesses it.",
            ),
            SkipReason::UnknownInput { variable } if variable.is_empty() => f.write_str(
                "The text to type is computed by the flow's JavaScript, which Whittle does \
                 not run.",
            ),
            SkipReason::UnknownInput { variable } => write!(
                f,
                "The text to type is the variable {variable}, which has no value: import \
                 the flow again with -e {variable}=… to replay it."
            ),
            SkipReason::ListPosition {
                element,
                position,
                list,
            } => write!(
                f,
                "The script finds “{element}” only by its position in a list (item \
                 {position} of {list}), which Whittle cannot replay yet: a tap on it alone \
                 could land on another item."
            ),
            SkipReason::AncestorsNeeded { element, ancestors } if ancestors.is_empty() => {
                write!(
                    f,
                    "The flow tells “{element}” apart from others with the same name only \
                     by where it sits, which Whittle cannot replay yet."
                )
            }
            SkipReason::AncestorsNeeded { element, ancestors } => write!(
                f,
                "The script tells “{element}” apart from others with the same name only \
                 by its ancestors ({ancestors}), which Whittle cannot replay yet."
            ),
            SkipReason::UnsupportedButton { button } => write!(
                f,
                "Only the BACK button can be replayed; this step pressed “{button}”."
            ),
        }
    }
}
