//! A step's action in plain words for the app, the report and exports. Built only
//! from the structured fields (never from the free `action` text) and never with a
//! typed value.

use crate::contract::ui::{By, Strategy};
use crate::sensitive::looks_sensitive_text;
use crate::session::clip_untrusted;

use super::key::KeyStrategy;
use super::legacy::{ACTION_INPUT_TEXT, ACTION_LAUNCH, ACTION_PRESS_BUTTON, ACTION_TAP};

const MAX_SHOWN: usize = 60;

pub(crate) fn describe(
    action_type: Option<&str>,
    key: &KeyStrategy,
    button: Option<&str>,
) -> String {
    match action_type {
        Some(ACTION_LAUNCH) => "Launch app".to_owned(),
        Some(ACTION_PRESS_BUTTON) => match button.filter(|b| !b.trim().is_empty()) {
            Some(b) => format!("Press {}", clip_untrusted(&b.to_ascii_uppercase(), 20)),
            None => "Press a button (not recorded which)".to_owned(),
        },
        Some(ACTION_TAP) => format!("Tap {}", target(key)),
        Some(ACTION_INPUT_TEXT) => format!("Type into {}", target(key)),
        Some(other) if !other.trim().is_empty() => {
            format!("Unsupported action “{}”", clip_untrusted(other, 30))
        }
        _ => "Unrecognized step".to_owned(),
    }
}

fn target(key: &KeyStrategy) -> String {
    match key {
        KeyStrategy::Found(strategy) if looks_sensitive_text(&strategy.value) => {
            "an element (name withheld: it looks like private data)".to_owned()
        }
        KeyStrategy::Found(strategy) => element(strategy),
        KeyStrategy::Unstable { key_kind } => format!("an element found by {key_kind}"),
        KeyStrategy::Absent => "an unrecorded element".to_owned(),
    }
}

fn element(strategy: &Strategy) -> String {
    match strategy.by {
        By::Identifier => {
            let short = strategy.value.rsplit('/').next().unwrap_or(&strategy.value);
            format!("“{}” (id)", clip_untrusted(short, MAX_SHOWN))
        }
        By::Text => format!("“{}”", clip_untrusted(&strategy.value, MAX_SHOWN)),
        By::Label => format!("“{}” (label)", clip_untrusted(&strategy.value, MAX_SHOWN)),
    }
}
