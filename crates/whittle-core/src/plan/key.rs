//! Element key → how to find the element (Phase 1 (docs/design.md §13) prefix rules).

use serde::Serialize;

use super::locator::{By, Strategy};

/// Which unstable key a step was recorded with: it names no element for sure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum UnstableKeyKind {
    Class,
    ScreenPosition,
}

impl UnstableKeyKind {
    /// The English phrase used in sentences ("found by its class").
    pub fn phrase(self) -> &'static str {
        match self {
            UnstableKeyKind::Class => "its class",
            UnstableKeyKind::ScreenPosition => "its screen position",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyStrategy {
    Found(Strategy),
    /// `class:` / `bounds:` keys carry no stable unique information.
    Unstable {
        key_kind: UnstableKeyKind,
    },
    Absent,
}

/// The key of a step that acts on whichever field has the input focus (Maestro's
/// `inputText` types there, whatever was tapped before).
pub const FOCUSED_KEY: &str = "focused:";

pub(crate) fn key_strategy(key: Option<&str>) -> KeyStrategy {
    let Some(key) = key.filter(|k| !k.trim().is_empty()) else {
        return KeyStrategy::Absent;
    };
    let found = |by, value: &str| {
        if value.is_empty() {
            KeyStrategy::Absent
        } else {
            KeyStrategy::Found(Strategy::new(by, value))
        }
    };
    if key == FOCUSED_KEY {
        KeyStrategy::Found(Strategy::focused())
    } else if let Some(text) = key.strip_prefix("text:") {
        found(By::Text, text)
    } else if let Some(label) = key.strip_prefix("label:") {
        found(By::Label, label)
    } else if key.starts_with("class:") {
        KeyStrategy::Unstable {
            key_kind: UnstableKeyKind::Class,
        }
    } else if key.starts_with("bounds:") {
        KeyStrategy::Unstable {
            key_kind: UnstableKeyKind::ScreenPosition,
        }
    } else {
        found(By::Identifier, key)
    }
}
