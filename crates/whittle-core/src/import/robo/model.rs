//! The Robo script JSON, typed: an unknown event type or a value of the wrong kind is
//! a parse error naming its line and field. Attributes Whittle does not act on
//! (timestamps, priorities) are read past.

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Script {
    #[serde(default)]
    pub crawl_stage: Option<String>,
    #[serde(default, rename = "contextDescriptor")]
    pub context: Option<Context>,
    pub actions: Vec<Action>,
}

#[derive(Deserialize)]
pub(super) struct Context {
    #[serde(default)]
    pub condition: Option<String>,
    #[serde(default, rename = "negateCondition")]
    pub negate: bool,
}

impl Script {
    /// Words for when Robo runs this script, if not simply once the app is shown.
    pub fn condition_words(&self) -> Option<String> {
        match self
            .crawl_stage
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("crawl") => {}
            Some(stage) => return Some(format!("in a {stage} script")),
        }
        let context = self.context.as_ref()?;
        let condition = context
            .condition
            .as_deref()
            .unwrap_or("")
            .to_ascii_lowercase();
        match (condition.as_str(), context.negate) {
            ("app_under_test_shown" | "always" | "", false) => None,
            (c, true) => Some(format!("when not {c}")),
            (c, false) => Some(format!("when {c}")),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Action {
    #[serde(rename = "eventType")]
    pub event: EventType,
    #[serde(default, rename = "elementDescriptors")]
    pub elements: Vec<Descriptor>,
    #[serde(default)]
    pub replacement_text: Option<String>,
    #[serde(default)]
    pub vision_text: Option<String>,
    #[serde(default)]
    pub match_index: Option<i64>,
    #[serde(default)]
    pub optional: bool,
    /// A conditional action: performed only when its own context matches.
    #[serde(default, rename = "contextDescriptor")]
    pub context: Option<serde_json::Value>,
}

impl Action {
    pub fn is_conditional(&self) -> bool {
        // An assertion's context is what it asserts, not a condition to run it.
        self.context.is_some() && self.event != EventType::Assertion
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Descriptor {
    #[serde(default)]
    pub class_name: Option<String>,
    #[serde(default)]
    pub resource_id: Option<String>,
    #[serde(default)]
    pub resource_id_regex: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub text_regex: Option<String>,
    #[serde(default)]
    pub content_description: Option<String>,
    #[serde(default)]
    pub content_description_regex: Option<String>,
    /// A text field's hint, as some scripts give it: a fact about the field, not a way
    /// Robo finds it.
    #[serde(default)]
    pub hint_text: Option<String>,
    /// Android's `inputType` bits (or flag names), when the script gives them.
    #[serde(default)]
    pub input_type: Option<serde_json::Value>,
    /// The position among a list's children, by the list's kind; -1 (the recorder's
    /// "not this kind") or absent when not. `groupViewChildPosition`, the position in
    /// an ordinary layout, does not make siblings alike and is read past.
    #[serde(default)]
    pub recycler_view_child_position: Option<i64>,
    #[serde(default)]
    pub adapter_view_child_position: Option<i64>,
}

impl Descriptor {
    /// The position of this widget in a list (a RecyclerView's or an AdapterView's
    /// child), when it is a list item.
    pub fn list_position(&self) -> Option<i64> {
        [
            self.recycler_view_child_position,
            self.adapter_view_child_position,
        ]
        .into_iter()
        .flatten()
        .find(|&p| p >= 0)
    }
}

/// Every event type of the Robo scripts reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(super) enum EventType {
    Assertion,
    ViewClicked,
    SoftKeyboardClick,
    SoftKeyboardRandomClick,
    ListItemClicked,
    DisableKeyboard,
    AdbShellCommand,
    PermissionsRequest,
    AllElementsIgnored,
    ElementIgnored,
    ViewTextChanged,
    EnterText,
    ViewLongClicked,
    OnePointGesture,
    TwoPointGesture,
    PressedEditorAction,
    PressedBack,
    #[serde(rename = "PRESSED_BACK_EMULATOR_28")]
    PressedBackEmulator28,
    GoHome,
    ElementScrollIntoView,
    ViewSwiped,
    TakeScreenshot,
    PointTap,
    PointTapElement,
    TerminateCrawl,
    Wait,
    DelayedMessagePosted,
    WaitForElement,
}

impl EventType {
    pub fn name(self) -> &'static str {
        match self {
            EventType::Assertion => "ASSERTION",
            EventType::ViewClicked => "VIEW_CLICKED",
            EventType::SoftKeyboardClick => "SOFT_KEYBOARD_CLICK",
            EventType::SoftKeyboardRandomClick => "SOFT_KEYBOARD_RANDOM_CLICK",
            EventType::ListItemClicked => "LIST_ITEM_CLICKED",
            EventType::DisableKeyboard => "DISABLE_KEYBOARD",
            EventType::AdbShellCommand => "ADB_SHELL_COMMAND",
            EventType::PermissionsRequest => "PERMISSIONS_REQUEST",
            EventType::AllElementsIgnored => "ALL_ELEMENTS_IGNORED",
            EventType::ElementIgnored => "ELEMENT_IGNORED",
            EventType::ViewTextChanged => "VIEW_TEXT_CHANGED",
            EventType::EnterText => "ENTER_TEXT",
            EventType::ViewLongClicked => "VIEW_LONG_CLICKED",
            EventType::OnePointGesture => "ONE_POINT_GESTURE",
            EventType::TwoPointGesture => "TWO_POINT_GESTURE",
            EventType::PressedEditorAction => "PRESSED_EDITOR_ACTION",
            EventType::PressedBack => "PRESSED_BACK",
            EventType::PressedBackEmulator28 => "PRESSED_BACK_EMULATOR_28",
            EventType::GoHome => "GO_HOME",
            EventType::ElementScrollIntoView => "ELEMENT_SCROLL_INTO_VIEW",
            EventType::ViewSwiped => "VIEW_SWIPED",
            EventType::TakeScreenshot => "TAKE_SCREENSHOT",
            EventType::PointTap => "POINT_TAP",
            EventType::PointTapElement => "POINT_TAP_ELEMENT",
            EventType::TerminateCrawl => "TERMINATE_CRAWL",
            EventType::Wait => "WAIT",
            EventType::DelayedMessagePosted => "DELAYED_MESSAGE_POSTED",
            EventType::WaitForElement => "WAIT_FOR_ELEMENT",
        }
    }
}
