//! How a replayed step finds its element on screen: the locator a plan entry carries
//! and the `ui` role's element tools take (`wait_for_element`, `tap_element`,
//! `input_text`). It is part of the domain because the plan decides it from a step's
//! element key (`key.rs`); the tool contract only carries it.
use serde::{Deserialize, Serialize};

/// How an element is found: resource id, visible text, or content description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum By {
    Identifier,
    Text,
    Label,
}

// One way to find an element; a step carries them in order of preference. (A plain
// comment: doc text would enter the tools' published schemas and the UI's bindings.)
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Strategy {
    pub by: By,
    pub value: String,
}
