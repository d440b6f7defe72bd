//! A step's action in plain words for the app, the report and exports. Built only
//! from the structured fields (never from the free `action` text) and never with a
//! typed value. [`StepWords`] is the typed form (the window words it in its own
//! language); its `Display` is the English text the CLI and reports print.

use std::fmt;

use serde::Serialize;

use crate::sensitive::looks_sensitive_text;
use crate::session::clip_untrusted;

use super::key::{KeyStrategy, UnstableKeyKind};
use super::legacy::{
    ACTION_INPUT_TEXT, ACTION_LAUNCH, ACTION_LONG_PRESS, ACTION_PRESS_BUTTON, ACTION_RELAUNCH,
    ACTION_TAP,
};
use super::locator::{By, Strategy};

const MAX_SHOWN: usize = 60;

/// What a step does, as data: every string in it is already clipped and free of
/// control characters, and never a typed value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepWords {
    Launch,
    /// `button` is `None` when the recording does not say which.
    Press {
        button: Option<String>,
    },
    Tap {
        target: TargetWords,
    },
    LongPress {
        target: TargetWords,
    },
    /// The app started again in the middle of the path.
    Relaunch,
    TypeInto {
        target: TargetWords,
    },
    Unsupported {
        action_type: String,
    },
    Unrecognized,
}

/// The element a step acts on, as far as it may be shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TargetWords {
    /// By resource id (the part after the last `/`).
    Id {
        name: String,
    },
    Text {
        text: String,
    },
    Label {
        label: String,
    },
    /// Whichever field has the input focus.
    Focused,
    /// The key looks like private data, so it is not shown.
    Withheld,
    /// Recorded only by its class or screen position.
    Unstable {
        key_kind: UnstableKeyKind,
    },
    Absent,
}

pub(crate) fn describe(
    action_type: Option<&str>,
    key: &KeyStrategy,
    button: Option<&str>,
) -> StepWords {
    match action_type {
        Some(ACTION_LAUNCH) => StepWords::Launch,
        Some(ACTION_PRESS_BUTTON) => StepWords::Press {
            button: button
                .filter(|b| !b.trim().is_empty())
                .map(|b| clip_untrusted(&b.to_ascii_uppercase(), 20)),
        },
        Some(ACTION_TAP) => StepWords::Tap {
            target: target(key),
        },
        Some(ACTION_LONG_PRESS) => StepWords::LongPress {
            target: target(key),
        },
        Some(ACTION_RELAUNCH) => StepWords::Relaunch,
        Some(ACTION_INPUT_TEXT) => StepWords::TypeInto {
            target: target(key),
        },
        Some(other) if !other.trim().is_empty() => StepWords::Unsupported {
            action_type: clip_untrusted(other, 30),
        },
        _ => StepWords::Unrecognized,
    }
}

fn target(key: &KeyStrategy) -> TargetWords {
    match key {
        KeyStrategy::Found(strategy) if looks_sensitive_text(&strategy.value) => {
            TargetWords::Withheld
        }
        KeyStrategy::Found(strategy) => element(strategy),
        KeyStrategy::Unstable { key_kind } => TargetWords::Unstable {
            key_kind: *key_kind,
        },
        KeyStrategy::Absent => TargetWords::Absent,
    }
}

fn element(strategy: &Strategy) -> TargetWords {
    match strategy.by {
        By::Identifier => {
            let short = strategy.value.rsplit('/').next().unwrap_or(&strategy.value);
            TargetWords::Id {
                name: clip_untrusted(short, MAX_SHOWN),
            }
        }
        By::Text => TargetWords::Text {
            text: clip_untrusted(&strategy.value, MAX_SHOWN),
        },
        By::Label => TargetWords::Label {
            label: clip_untrusted(&strategy.value, MAX_SHOWN),
        },
        By::Focused => TargetWords::Focused,
    }
}

impl fmt::Display for StepWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepWords::Launch => f.write_str("Launch app"),
            StepWords::Press { button: Some(b) } => write!(f, "Press {b}"),
            StepWords::Press { button: None } => f.write_str("Press a button (not recorded which)"),
            StepWords::Tap { target } => write!(f, "Tap {target}"),
            StepWords::LongPress { target } => write!(f, "Long-press {target}"),
            StepWords::Relaunch => f.write_str("Launch the app again"),
            StepWords::TypeInto { target } => write!(f, "Type into {target}"),
            StepWords::Unsupported { action_type } => {
                write!(f, "Unsupported action “{action_type}”")
            }
            StepWords::Unrecognized => f.write_str("Unrecognized step"),
        }
    }
}

impl fmt::Display for TargetWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetWords::Id { name } => write!(f, "“{name}” (id)"),
            TargetWords::Text { text } => write!(f, "“{text}”"),
            TargetWords::Label { label } => write!(f, "“{label}” (label)"),
            TargetWords::Focused => f.write_str("the focused field"),
            TargetWords::Withheld => {
                f.write_str("an element (name withheld: it looks like private data)")
            }
            TargetWords::Unstable { key_kind } => {
                write!(f, "an element found by {}", key_kind.phrase())
            }
            TargetWords::Absent => f.write_str("an unrecorded element"),
        }
    }
}
