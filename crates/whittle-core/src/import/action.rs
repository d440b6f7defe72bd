//! An imported command as Whittle's step: the allowlisted `notes.replay` fields the
//! plan reads (see `plan::record`), the human `action` text, and where it came from.
//! A typed value judged private (`privacy.rs`) is not written at all: the step is marked
//! `input_redacted`, as a recorder would have (and `input_withheld` when it was withheld
//! in doubt), so neither the session nor an export ever holds it.

use serde_json::{json, Map, Value};

use super::format::FlowFormat;
use super::privacy::{typed_value_storage, FieldFacts, Storage};
use crate::model::{Step, StepResult};
use crate::plan::{ActionKind, LocatorGap, MaestroSelector, FOCUSED_KEY};
use crate::sensitive::looks_sensitive_text;
use crate::session::clip_untrusted;

/// How a command names its element, in the plan's `element_key` syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElementKey {
    /// A resource id (`com.x:id/btn`, `id/btn` or a bare name).
    Id(String),
    /// Visible text.
    Text(String),
    /// Content description (accessibility label).
    Label(String),
    /// Only a class name: not a stable identity (the plan skips it with its reason).
    Class(String),
    /// Only a screen position: not a stable identity either.
    Position(String),
    /// Whichever field has the input focus.
    Focused,
    /// A Maestro selector: `pattern` is matched as Maestro matches a text (`by_id`
    /// false) or an id, narrowed by `selector` (plan/maestro_match.rs).
    Maestro {
        by_id: bool,
        pattern: String,
        selector: MaestroSelector,
    },
}

impl ElementKey {
    /// The `element_key` string the plan's key rules read back.
    pub fn to_key(&self) -> String {
        match self {
            ElementKey::Id(id) => id.clone(),
            ElementKey::Text(text) => format!("text:{text}"),
            ElementKey::Label(label) => format!("label:{label}"),
            ElementKey::Class(class) => format!("class:{class}"),
            ElementKey::Position(at) => format!("bounds:{at}"),
            ElementKey::Focused => FOCUSED_KEY.to_owned(),
            ElementKey::Maestro {
                by_id: true,
                pattern,
                ..
            } => pattern.clone(),
            ElementKey::Maestro { pattern, .. } => format!("text:{pattern}"),
        }
    }

    /// The element's `notes.replay` fields: its key, and its Maestro selector if any.
    fn insert_into(&self, replay: &mut Map<String, Value>) {
        replay.insert("element_key".into(), json!(self.to_key()));
        if let ElementKey::Maestro { selector, .. } = self {
            replay.insert("maestro".into(), json!(selector));
        }
    }
}

/// What one command does, as far as Whittle's replay is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportedAction {
    Launch,
    Tap {
        element: ElementKey,
    },
    LongPress {
        element: ElementKey,
    },
    /// The app launched again mid-flow; `stop_app` false brings a running app forward.
    Relaunch {
        stop_app: bool,
    },
    /// `element` is `None` when the flow does not say which field (a Robo descriptor
    /// with nothing to find it by); `value` is `None` when the flow gives no text (a
    /// Robo action without `replacementText`; a Maestro variable without a value is
    /// [`ImportedAction::InputUnknown`]). `private` is true when the format's facts
    /// about the field (its input type, hint, class, selector, a variable's name) or the
    /// user say the value is private (`privacy.rs`); the key, the value and the field's
    /// other facts ([`ImportedStep::field`]) are judged in any case.
    InputText {
        element: Option<ElementKey>,
        value: Option<String>,
        private: bool,
    },
    /// An Android button, upper case (`BACK`, `HOME`, `ENTER`).
    PressButton {
        button: String,
    },
    /// A command Whittle does not replay, in words (`assert visible`, `view swiped`).
    Unsupported {
        what: String,
    },
    /// A tap, long press or typing (`kind`) on an element the flow tells apart only by
    /// what Whittle's locators cannot say (`gap`): kept, never replayed on `element`
    /// alone, and a typed value never stored.
    Unlocatable {
        kind: ActionKind,
        element: Option<ElementKey>,
        gap: LocatorGap,
    },
    /// Typing a Maestro variable's value that Whittle does not know: `variable` names
    /// the variable that has none, or is empty when the text is computed by JavaScript.
    InputUnknown {
        element: Option<ElementKey>,
        variable: String,
    },
}

impl ImportedAction {
    /// The `notes.replay` object for this action; `field` is what the flow says of the
    /// field a value is typed into.
    pub fn replay_json(&self, field: FieldFacts) -> Value {
        match self {
            ImportedAction::Launch => json!({ "action_type": "launch" }),
            ImportedAction::Tap { element } | ImportedAction::LongPress { element } => {
                let mut replay = Map::new();
                let kind = if matches!(self, ImportedAction::Tap { .. }) {
                    "tap"
                } else {
                    "long_press"
                };
                replay.insert("action_type".into(), json!(kind));
                element.insert_into(&mut replay);
                Value::Object(replay)
            }
            ImportedAction::Relaunch { stop_app } => {
                json!({ "action_type": "relaunch", "stop_app": stop_app })
            }
            ImportedAction::InputText {
                element,
                value,
                private,
            } => {
                let mut replay = Map::new();
                replay.insert("action_type".into(), json!("input_text"));
                let key = element.as_ref().map(ElementKey::to_key);
                if let Some(element) = element {
                    element.insert_into(&mut replay);
                }
                if let Some(value) = value {
                    let key = key.as_deref().unwrap_or("");
                    match typed_value_storage(key, value, *private, field) {
                        Storage::Kept => {
                            replay.insert("input_value".into(), json!(value));
                        }
                        Storage::Private => {
                            replay.insert("input_redacted".into(), json!(true));
                        }
                        Storage::Withheld => {
                            replay.insert("input_redacted".into(), json!(true));
                            replay.insert("input_withheld".into(), json!(true));
                        }
                    }
                }
                Value::Object(replay)
            }
            ImportedAction::Unlocatable { kind, element, gap } => {
                let mut replay = Map::new();
                replay.insert("action_type".into(), json!(kind.as_str()));
                if let Some(element) = element {
                    element.insert_into(&mut replay);
                }
                replay.insert("locator_gap".into(), json!(gap));
                Value::Object(replay)
            }
            ImportedAction::InputUnknown { element, variable } => {
                let mut replay = Map::new();
                replay.insert("action_type".into(), json!("input_text"));
                if let Some(element) = element {
                    element.insert_into(&mut replay);
                }
                replay.insert("input_unknown".into(), json!(variable));
                Value::Object(replay)
            }
            ImportedAction::PressButton { button } => {
                json!({ "action_type": "press_button", "button": button })
            }
            ImportedAction::Unsupported { what } => json!({ "action_type": what }),
        }
    }

    /// A short human description for the step's `action`: never a typed value.
    fn words(&self, command: &str) -> String {
        let element = |e: &ElementKey| match e {
            ElementKey::Id(id) => format!("id {id}"),
            ElementKey::Text(t) => format!("text {t:?}"),
            ElementKey::Label(l) => format!("label {l:?}"),
            ElementKey::Class(c) => format!("class {c}"),
            ElementKey::Position(p) => format!("position {p}"),
            ElementKey::Focused => "the focused field".to_owned(),
            ElementKey::Maestro {
                by_id: true,
                pattern,
                ..
            } => format!("id matching {pattern:?}"),
            ElementKey::Maestro { pattern, .. } => format!("text matching {pattern:?}"),
        };
        let text = match self {
            ImportedAction::Launch => "launch app".to_owned(),
            ImportedAction::Tap { element: e } => format!("tap {}", element(e)),
            ImportedAction::LongPress { element: e } => format!("long-press {}", element(e)),
            ImportedAction::Relaunch { stop_app: true } => {
                "stop and launch the app again".to_owned()
            }
            ImportedAction::Relaunch { stop_app: false } => "bring the app forward".to_owned(),
            ImportedAction::InputText {
                element: Some(e), ..
            } => {
                format!("type into {}", element(e))
            }
            ImportedAction::InputText { element: None, .. }
            | ImportedAction::InputUnknown { element: None, .. } => {
                "type into the focused field".to_owned()
            }
            ImportedAction::InputUnknown {
                element: Some(e), ..
            } => format!("type into {}", element(e)),
            ImportedAction::Unlocatable {
                kind,
                element: e,
                gap,
            } => {
                let verb = match kind {
                    ActionKind::LongPress => "long-press",
                    ActionKind::InputText => "type into",
                    _ => "tap",
                };
                let target = e.as_ref().map_or_else(|| "an element".to_owned(), element);
                match gap {
                    LocatorGap::ListPosition { position, list } => {
                        format!("{verb} {target} in list item {position} of {list}")
                    }
                    LocatorGap::Ancestors { ancestors } => {
                        format!("{verb} {target} in {ancestors}")
                    }
                }
            }
            ImportedAction::PressButton { button } => format!("press {button}"),
            ImportedAction::Unsupported { what } => what.clone(),
        };
        clip_untrusted(&format!("{command}: {text}"), 160)
    }
}

/// One command of the flow as a Whittle step.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedStep {
    /// The 1-based line of the command in the file, when known.
    pub line: Option<usize>,
    /// The command as the file names it (`tapOn`, `VIEW_CLICKED`).
    pub command: String,
    /// The whole command as written, on one line, when the format gives it: what a
    /// person reads for a step Whittle does not replay.
    pub source: Option<String>,
    pub action: ImportedAction,
    /// What the flow says of the field a value is typed into (`privacy.rs`).
    pub field: FieldFacts,
}

impl ImportedStep {
    /// The step's `action` text: for a step Whittle does not replay, the whole command as
    /// written (its selector, text or sub-flow), unless it holds what looks private.
    fn description(&self) -> String {
        match (&self.action, &self.source) {
            (ImportedAction::Unsupported { what }, Some(source))
                if !looks_sensitive_text(source) =>
            {
                clip_untrusted(&format!("{what} — {source}"), 240)
            }
            _ => self.action.words(&self.command),
        }
    }

    /// The step as `steps.jsonl` holds it: `notes` is the JSON object with the
    /// `replay` fields and an `import` record (format, command, line) for people.
    pub fn to_step(&self, index: u32, ts: &str, format: FlowFormat) -> Step {
        let mut source = Map::new();
        source.insert("format".into(), json!(format.as_str()));
        source.insert("command".into(), json!(clip_untrusted(&self.command, 60)));
        if let Some(line) = self.line {
            source.insert("line".into(), json!(line));
        }
        let notes = json!({ "replay": self.action.replay_json(self.field), "import": source });
        Step {
            index,
            ts: Some(ts.to_owned()),
            action: self.description(),
            result: StepResult::Ok,
            notes: notes.to_string(),
            screenshot_src: None,
            screenshot_redacted: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{build_plan, Disposition, ReplayAction, SkipReason};

    fn step(action: ImportedAction, index: u32) -> Step {
        ImportedStep {
            line: Some(3),
            command: "cmd".into(),
            source: None,
            action,
            field: FieldFacts::Silent,
        }
        .to_step(index, "2026-05-14T16:03:54Z", FlowFormat::Maestro)
    }

    #[test]
    fn imported_steps_go_through_the_same_plan_builder() {
        let steps = vec![
            step(ImportedAction::Launch, 1),
            step(
                ImportedAction::Tap {
                    element: ElementKey::Id("com.x:id/btn".into()),
                },
                2,
            ),
            step(
                ImportedAction::InputText {
                    element: Some(ElementKey::Id("com.x:id/search".into())),
                    value: Some("red shoes".into()),
                    private: false,
                },
                3,
            ),
            step(
                ImportedAction::PressButton {
                    button: "BACK".into(),
                },
                4,
            ),
            step(
                ImportedAction::Unsupported {
                    what: "assert visible".into(),
                },
                5,
            ),
            step(
                ImportedAction::Tap {
                    element: ElementKey::Position("50%,50%".into()),
                },
                6,
            ),
        ];
        let plan = build_plan(&steps, &[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(plan.setup, [1]);
        assert_eq!(plan.candidate_ids(), [2, 3, 4]);
        match &plan.step(3).unwrap().action {
            ReplayAction::InputText { value, .. } => assert_eq!(value.expose(), "red shoes"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            plan.steps[4].disposition,
            Disposition::Skipped {
                reason: SkipReason::UnsupportedAction {
                    action_type: "assert visible".into()
                }
            }
        );
        assert!(matches!(
            plan.steps[5].disposition,
            Disposition::Skipped {
                reason: SkipReason::UnstableKey { .. }
            }
        ));
    }

    #[test]
    fn a_private_value_is_never_written() {
        let s = step(
            ImportedAction::InputText {
                element: Some(ElementKey::Id("com.x:id/password".into())),
                value: Some("hunter2-Secret!".into()),
                private: false,
            },
            2,
        );
        assert!(!s.notes.contains("hunter2"), "{}", s.notes);
        assert!(!s.action.contains("hunter2"));
        let plan = build_plan(&[step(ImportedAction::Launch, 1), s], &[1, 2]).unwrap();
        assert_eq!(
            plan.steps[1].disposition,
            Disposition::Skipped {
                reason: SkipReason::InputRedacted
            }
        );
        let email = step(
            ImportedAction::InputText {
                element: Some(ElementKey::Id("com.x:id/field".into())),
                value: Some("qa.tester@example.com".into()),
                private: false,
            },
            2,
        );
        assert!(!email.notes.contains("example.com"), "{}", email.notes);
    }
}
