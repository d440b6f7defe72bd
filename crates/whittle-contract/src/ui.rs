//! `ui` role: hierarchy queries and element actions.
use crate::{contract_type, lenient};
use whittle_core::plan::element_match::{ElementFlag, Target};

pub const GET_HIERARCHY: &str = "get_hierarchy";
pub const WAIT_FOR_ELEMENT: &str = "wait_for_element";
pub const TAP_ELEMENT: &str = "tap_element";
/// Takes the tap's arguments and answers as a tap does; the press lasts
/// [`LONG_PRESS_MS`].
pub const LONG_PRESS_ELEMENT: &str = "long_press_element";
pub const INPUT_TEXT: &str = "input_text";
/// The published contract: every run uses these, so a ui server must list them all.
pub const TOOLS: &[&str] = &[GET_HIERARCHY, WAIT_FOR_ELEMENT, TAP_ELEMENT, INPUT_TEXT];
/// Tools added after the contract was published: a capability a server may have, needed
/// only by a plan holding a step that uses one ([`tool_for_action`]). A server written to
/// the published contract keeps working for every other path.
pub const OPTIONAL_TOOLS: &[&str] = &[LONG_PRESS_ELEMENT];

/// The optional tool a step of this kind needs, if any (the published tools serve
/// every other kind).
pub fn tool_for_action(kind: whittle_core::plan::ActionKind) -> Option<&'static str> {
    use whittle_core::plan::ActionKind;
    match kind {
        ActionKind::LongPress => Some(LONG_PRESS_ELEMENT),
        ActionKind::Launch
        | ActionKind::Tap
        | ActionKind::InputText
        | ActionKind::PressButton
        | ActionKind::Relaunch => None,
    }
}

/// How long a long press holds: Android's long-press timeout is 400–500 ms
/// (`ViewConfiguration.getLongPressTimeout`), so this is comfortably past it.
pub const LONG_PRESS_MS: u32 = 800;

/// The element locator the element tools take is the one the plan decides.
pub use whittle_core::plan::{By, Strategy};

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
        /// The hint an empty field shows (uiautomator's `hint`); Maestro's text
        /// selectors match it.
        #[serde(default, skip_serializing_if = "String::is_empty", deserialize_with = "lenient::text")]
        pub hint: String,
        /// Flags Maestro's selectors filter on; `None` when the server does not say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub clickable: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub enabled: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub checked: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub selected: Option<bool>,
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
            hint: String::new(),
            clickable: None,
            enabled: None,
            checked: None,
            selected: None,
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
        #[opt_text]
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
        #[opt_text]
        pub reason: Option<String>,
    }
}

/// A device's element, as the shared matcher reads it.
impl Target for UiElement {
    fn resource_id(&self) -> &str {
        &self.resource_id
    }
    fn text(&self) -> &str {
        &self.text
    }
    fn label(&self) -> &str {
        &self.content_desc
    }
    fn bounds(&self) -> [i32; 4] {
        self.bounds
    }
    fn visible(&self) -> bool {
        self.visible
    }
    fn hint(&self) -> &str {
        &self.hint
    }
    fn flag(&self, flag: ElementFlag) -> Option<bool> {
        match flag {
            ElementFlag::Enabled => self.enabled,
            ElementFlag::Checked => self.checked,
            ElementFlag::Selected => self.selected,
            ElementFlag::Focused => Some(self.focused),
            ElementFlag::Clickable => self.clickable,
        }
    }
    fn depth(&self) -> Option<u32> {
        self.depth
    }
}
