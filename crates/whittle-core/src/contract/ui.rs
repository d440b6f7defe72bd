//! `ui` role: hierarchy queries and element actions.
use serde::{Deserialize, Serialize};

use super::{contract_type, lenient};

pub const GET_HIERARCHY: &str = "get_hierarchy";
pub const WAIT_FOR_ELEMENT: &str = "wait_for_element";
pub const TAP_ELEMENT: &str = "tap_element";
pub const INPUT_TEXT: &str = "input_text";
pub const TOOLS: &[&str] = &[GET_HIERARCHY, WAIT_FOR_ELEMENT, TAP_ELEMENT, INPUT_TEXT];

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

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Strategy {
    pub by: By,
    pub value: String,
}

contract_type! {
    pub struct UiElement {
        #[serde(default, deserialize_with = "lenient::text")]
        pub resource_id: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub text: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub content_desc: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub class: String,
        /// [left, top, right, bottom] in screen pixels.
        pub bounds: [i32; 4],
        #[serde(default)]
        pub password: bool,
        #[serde(default)]
        pub focused: bool,
        #[serde(default = "default_true")]
        pub visible: bool,
        /// The app the node belongs to (uiautomator's `package` attribute); `None` when
        /// the server does not say. Masking checks that the screen is the app's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub package: Option<String>,
        /// Nesting depth in the window's view tree (0 = the root), with elements listed
        /// in document order, so a node's descendants are the run of deeper nodes right
        /// after it. `None` when the server does not say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub depth: Option<u32>,
    }
}

fn default_true() -> bool {
    true
}

/// An empty, visible element: a base for `UiElement { bounds, ..Default::default() }`.
impl Default for UiElement {
    fn default() -> Self {
        UiElement {
            resource_id: String::new(),
            text: String::new(),
            content_desc: String::new(),
            class: String::new(),
            bounds: [0; 4],
            password: false,
            focused: false,
            visible: true,
            package: None,
            depth: None,
        }
    }
}

contract_type! {
    pub struct Hierarchy {
        pub elements: Vec<UiElement>,
    }
}

contract_type! {
    pub struct WaitForElementArgs {
        pub device: String,
        pub strategies: Vec<Strategy>,
        pub timeout_ms: u32,
    }
}

contract_type! {
    pub struct WaitForElementResult {
        pub found: bool,
    }
}

contract_type! {
    pub struct TapElementArgs {
        pub device: String,
        pub strategies: Vec<Strategy>,
        #[serde(default)]
        pub settle_ms: u32,
    }
}

contract_type! {
    pub struct TapElementResult {
        pub tapped: bool,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_text"
        )]
        pub reason: Option<String>,
    }
}

contract_type! {
    pub struct InputTextArgs {
        pub device: String,
        pub strategies: Vec<Strategy>,
        pub text: String,
    }
}

contract_type! {
    pub struct InputTextResult {
        pub ok: bool,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_text"
        )]
        pub reason: Option<String>,
    }
}
