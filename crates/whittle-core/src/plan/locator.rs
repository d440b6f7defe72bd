//! How a replayed step finds its element on screen: the locator a plan entry carries
//! and the `ui` role's element tools take (`wait_for_element`, `tap_element`,
//! `long_press_element`, `input_text`). It is part of the domain because the plan
//! decides it from a step's element key (`key.rs`); the tool contract only carries it.
use serde::{Deserialize, Serialize};

/// How an element is found: resource id, visible text, content description, or the
/// field that has the input focus (`value` is then empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum By {
    Identifier,
    Text,
    Label,
    Focused,
}

// One way to find an element; a step carries them in order of preference. `maestro` is
// set for a step imported from a Maestro selector: `value` is then matched as Maestro
// matches it (a regular expression, text against text, hint and label) and the
// selector's state filters and index narrow the match (plan/element_match.rs). (A plain
// comment: doc text would enter the tools' published schemas and the UI's bindings.)
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Strategy {
    pub by: By,
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub maestro: Option<MaestroSelector>,
}

impl Strategy {
    /// A locator matched by Whittle's own rules (plan/element_match.rs).
    pub fn new(by: By, value: impl Into<String>) -> Strategy {
        Strategy {
            by,
            value: value.into(),
            maestro: None,
        }
    }

    /// The field that has the input focus, wherever it is: where Maestro's `inputText`
    /// types.
    pub fn focused() -> Strategy {
        Strategy::new(By::Focused, "")
    }
}

/// What a Maestro selector says besides its text or id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MaestroSelector {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub checked: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub selected: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub focused: Option<bool>,
}
