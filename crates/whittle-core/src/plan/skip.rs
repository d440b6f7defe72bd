use std::fmt;

use serde::Serialize;

/// Why a step of the path cannot be replayed live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
            SkipReason::UnsupportedButton { button } => write!(
                f,
                "Only the BACK button can be replayed; this step pressed “{button}”."
            ),
        }
    }
}
