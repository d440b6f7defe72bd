//! Firebase Test Lab Robo scripts (firebase.google.com/docs/test-lab/android/
//! robo-scripts-reference): a JSON list of scripts (`{"actions": […], "crawlStage",
//! "contextDescriptor", …}`) or, for one unconditional script, just its actions
//! (`[{"eventType": …}, …]`). Lines starting with `#` or `//` are comments, and the
//! list may follow an execution header `"roboscript": {…}`.
//!
//! What becomes what (each action's first element descriptor names its target; Robo's
//! other descriptors are its ancestors, which `tap_element` cannot check):
//! - When the script targets one key (id, text, description) under different ancestors
//!   (their ids differ), the ancestors are what tells those elements apart: every such
//!   action is kept and skipped with its ancestors in words, never a tap on the key
//!   alone that could land on the other element.
//! - `VIEW_CLICKED`, `LIST_ITEM_CLICKED` → tap by `resourceId`, else `text`, else
//!   `contentDescription`, else only a class (not replayable); OCR `visionText` is text.
//! - Inside a list (a descriptor with a `recyclerViewChildPosition` or
//!   `adapterViewChildPosition`), an id names every item alike: the target is tapped by
//!   its `text` or `contentDescription`, and without them the step is kept and skipped,
//!   its reason naming the position and the list, never replayed on the bare id.
//! - `VIEW_TEXT_CHANGED` → typing `replacementText` into the target (by `resourceId`,
//!   else `contentDescription`: a field's `text` is what was typed, not its name); the
//!   descriptors' facts about the field (`inputType`, `hintText`, class, description,
//!   the nearest ancestors' names, a masked text) feed the privacy decision
//!   (`privacy.rs`).
//! - `PRESSED_BACK` (and the recorder's `PRESSED_BACK_EMULATOR_28`) → BACK;
//!   `GO_HOME` → HOME.
//! - every other event type is kept as a step Whittle does not replay, and so is every
//!   action that Robo runs only under a condition (a script with a context descriptor
//!   other than "app under test shown", a `pre_crawl`/`post_crawl`/`close_screen`
//!   script, a conditional or `optional` action). `ADB_SHELL_COMMAND` is never run.
//!
//! Robo launches the app before a script, so the import starts with a launch step.

mod model;

use std::collections::{BTreeMap, BTreeSet};

use super::privacy::{
    input_type_of, is_masked_text, names_a_secret, names_contact_data, InputTypeFact,
};
use super::{
    checked_text, line_number, ElementKey, FieldFacts, FlowFormat, ImportError, ImportNote,
    ImportProblem, ImportedAction, ImportedFlow, ImportedStep, MAX_FLOW_STEPS,
};
use crate::nesting::{check_json_nesting, TooDeep};
use crate::plan::{ActionKind, LocatorGap};
use model::{Action, Descriptor, EventType, Script};

/// `__%APP_PACKAGE_NAME%__`, replaced by the app's package when it is known.
const PACKAGE_TEMPLATE: &str = "__%APP_PACKAGE_NAME%__";

/// Parses a Robo script; `file` names it in errors. `package` fills the template
/// parameter `__%APP_PACKAGE_NAME%__` when given.
pub fn parse(file: &str, bytes: &[u8]) -> Result<ImportedFlow, ImportError> {
    parse_for(file, bytes, None)
}

/// [`parse`] with the app's package known (it fills the template parameter).
pub fn parse_for(
    file: &str,
    bytes: &[u8],
    package: Option<&str>,
) -> Result<ImportedFlow, ImportError> {
    let text = checked_text(file, bytes)?;
    let (json, header) = without_comments_and_header(text).map_err(|deep| {
        ImportError::at(
            file,
            Some(deep.line),
            None,
            ImportProblem::TooDeep { limit: deep.limit },
        )
    })?;
    let mut notes = Vec::new();
    if let Some(line) = header {
        notes.push(ImportNote::ExecutionOptions {
            line: line_number(line),
        });
    }
    let scripts = read_scripts(file, &json)?;
    let total: usize = scripts.iter().map(|s| s.actions.len()).sum();
    let lines = event_lines(&json).filter(|l| l.len() == total);
    let mut steps = vec![ImportedStep {
        line: None,
        command: "(Robo launches the app)".into(),
        source: None,
        action: ImportedAction::Launch,
        field: FieldFacts::Silent,
    }];
    let fill = |s: &str| match package {
        Some(p) => s.replace(PACKAGE_TEMPLATE, p),
        None => s.to_owned(),
    };
    let told_apart = told_apart_by_ancestors(&scripts, &fill);
    let mut n = 0usize;
    for script in &scripts {
        let conditional_script = script.condition_words();
        for action in &script.actions {
            let line = lines.as_ref().and_then(|l| l.get(n).copied());
            n += 1;
            if steps.len() > MAX_FLOW_STEPS {
                return Err(ImportError::file(
                    file,
                    ImportProblem::TooManySteps {
                        limit: MAX_FLOW_STEPS,
                    },
                ));
            }
            let mapped = match (
                &conditional_script,
                action.is_conditional(),
                action.optional,
            ) {
                (Some(words), _, _) => unsupported(&format!("{} {words}", action.event.name())),
                (None, true, _) => unsupported(&format!("conditional {}", action.event.name())),
                (None, false, true) => unsupported(&format!("optional {}", action.event.name())),
                (None, false, false) => map_action(action, &fill, &told_apart),
            };
            steps.push(ImportedStep {
                line,
                command: action.event.name().to_owned(),
                source: None,
                field: field_facts(&action.elements),
                action: mapped,
            });
        }
    }
    if n == 0 {
        return Err(ImportError::file(file, ImportProblem::NoSteps));
    }
    Ok(ImportedFlow {
        format: FlowFormat::Robo,
        package: None,
        name: None,
        steps,
        notes,
    })
}

fn read_scripts(file: &str, json: &str) -> Result<Vec<Script>, ImportError> {
    // Which of the three shapes: read once untyped (syntax errors have their line here),
    // then typed from the text again, so a bad field is reported with its line too.
    let shape: serde_json::Value =
        serde_json::from_str(json).map_err(|e| json_error(file, None, &e))?;
    let is_action = |v: &serde_json::Value| v.get("eventType").is_some();
    match &shape {
        serde_json::Value::Array(items) if items.first().is_some_and(is_action) => {
            Ok(vec![Script {
                crawl_stage: None,
                context: None,
                actions: typed(file, json)?,
            }])
        }
        serde_json::Value::Array(_) => typed(file, json),
        serde_json::Value::Object(map) if map.contains_key("actions") => {
            Ok(vec![typed(file, json)?])
        }
        _ => Err(ImportError::at(
            file,
            Some(1),
            None,
            ImportProblem::Structure(
                "a Robo script is a JSON list of actions ({\"eventType\": …}) or of scripts \
                 ({\"actions\": […]})"
                    .into(),
            ),
        )),
    }
}

fn typed<T: serde::de::DeserializeOwned>(file: &str, json: &str) -> Result<T, ImportError> {
    let mut de = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = Some(e.path().to_string()).filter(|f| f != ".");
        json_error(file, field, e.inner())
    })
}

fn json_error(file: &str, field: Option<String>, e: &serde_json::Error) -> ImportError {
    let detail = without_position(e);
    let problem = if e.is_syntax() || e.is_eof() {
        ImportProblem::Syntax {
            format: "JSON",
            detail,
        }
    } else {
        ImportProblem::BadValue(detail)
    };
    ImportError::at(file, Some(e.line()).filter(|&l| l > 0), field, problem)
}

/// serde_json's message without its "at line L column C" tail (the error has its line).
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

fn unsupported(what: &str) -> ImportedAction {
    ImportedAction::Unsupported {
        what: crate::session::clip_untrusted(&what.to_ascii_lowercase(), 60),
    }
}

fn map_action(
    action: &Action,
    fill: &dyn Fn(&str) -> String,
    told_apart: &BTreeSet<String>,
) -> ImportedAction {
    let target = action.elements.first();
    let in_list = list_place(&action.elements, fill);
    // The same key elsewhere under other ancestors: the key alone names either element.
    let ancestors_gap = |element: &Option<ElementKey>| {
        element
            .as_ref()
            .filter(|key| told_apart.contains(&key.to_key()))
            .map(|_| LocatorGap::Ancestors {
                ancestors: crate::session::clip_untrusted(
                    &ancestor_ids(&action.elements, fill).join(" in "),
                    120,
                ),
            })
    };
    match action.event {
        EventType::ViewClicked | EventType::ListItemClicked | EventType::ViewLongClicked => {
            let long = action.event == EventType::ViewLongClicked;
            let kind = if long {
                ActionKind::LongPress
            } else {
                ActionKind::Tap
            };
            let element = match (target, &action.vision_text) {
                (Some(d), _) if d.has_regex() => match d.case_insensitive_text() {
                    // What Whittle's own Robo export writes for a Maestro text.
                    Some(key) => Some(key),
                    None => return unsupported("click by a regex descriptor"),
                },
                (Some(d), _) => match &in_list {
                    // A list item's id is shared by its siblings: only what it shows
                    // tells it apart, and Whittle's ui tools cannot say "the Nth item".
                    Some(place) => match d.shown_key() {
                        Some(key) => Some(key),
                        None => return place.skipped(kind),
                    },
                    None => d.click_key(fill),
                },
                (None, Some(text)) if action.match_index.unwrap_or(0) == 0 && !text.is_empty() => {
                    Some(ElementKey::Text(text.clone()))
                }
                (None, Some(text)) => {
                    let index = action.match_index.unwrap_or(0);
                    return unsupported(&format!("click on match {index} of seen text {text:?}"));
                }
                _ => None,
            };
            if let Some(gap) = ancestors_gap(&element) {
                return ImportedAction::Unlocatable { kind, element, gap };
            }
            match element {
                Some(element) if long => ImportedAction::LongPress { element },
                Some(element) => ImportedAction::Tap { element },
                None => unsupported("click without an element"),
            }
        }
        EventType::ViewTextChanged => match (target, &in_list) {
            (Some(d), _) if d.has_regex() => unsupported("text change by a regex descriptor"),
            (Some(d), Some(place)) if nonempty(&d.content_description).is_none() => {
                place.skipped(ActionKind::InputText)
            }
            _ => {
                let element = target.and_then(|d| d.field_key(fill));
                match ancestors_gap(&element) {
                    Some(gap) => ImportedAction::Unlocatable {
                        kind: ActionKind::InputText,
                        element,
                        gap,
                    },
                    None => ImportedAction::InputText {
                        element,
                        value: action.replacement_text.clone(),
                        private: field_is_private(&action.elements),
                    },
                }
            }
        },
        EventType::PressedBack | EventType::PressedBackEmulator28 => ImportedAction::PressButton {
            button: "BACK".into(),
        },
        EventType::GoHome => ImportedAction::PressButton {
            button: "HOME".into(),
        },
        other => unsupported(other.name()),
    }
}

/// What a Robo script says of a text field beyond its key: its input type (a password
/// variation), its hint, the widget's class (a `PasswordEditText`, an `OtpView`), its
/// description, the ids, descriptions and hints of its two nearest ancestors (a
/// `TextInputLayout` wraps its field in a frame, so the layout that names it is the
/// second), and a text of mask characters only, which is what a password field shows.
/// Farther ancestors (a card, a form) name a region, not this field, so they are not
/// read.
fn field_is_private(elements: &[Descriptor]) -> bool {
    let Some(target) = elements.first() else {
        return false;
    };
    target.input_type.as_ref().map(input_type_of) == Some(InputTypeFact::Password)
        || names_a_secret(field_names(elements))
        || nonempty(&target.text).is_some_and(is_masked_text)
}

/// Whether the script says the field is a plain one: an input type without a password
/// variation, or a name (id, hint, description) that says contact data.
fn field_facts(elements: &[Descriptor]) -> FieldFacts {
    let Some(target) = elements.first() else {
        return FieldFacts::Silent;
    };
    let plain_type = target.input_type.as_ref().map(input_type_of) == Some(InputTypeFact::Plain);
    let contact = names_contact_data(
        [
            &target.resource_id,
            &target.hint_text,
            &target.content_description,
        ]
        .into_iter()
        .filter_map(nonempty),
    );
    if plain_type || contact {
        FieldFacts::Plain
    } else {
        FieldFacts::Silent
    }
}

/// The names of a field that say what it holds (see [`field_is_private`]).
fn field_names(elements: &[Descriptor]) -> impl Iterator<Item = &str> {
    let own = elements
        .first()
        .into_iter()
        .flat_map(|t| [&t.class_name, &t.content_description, &t.hint_text]);
    let ancestors = elements
        .iter()
        .skip(1)
        .take(2)
        .flat_map(|a| [&a.resource_id, &a.content_description, &a.hint_text]);
    own.chain(ancestors).filter_map(nonempty)
}

/// The ids of a target's ancestors, nearest first, by the part after their last `/`.
fn ancestor_ids(elements: &[Descriptor], fill: &dyn Fn(&str) -> String) -> Vec<String> {
    elements
        .iter()
        .skip(1)
        .filter_map(|a| nonempty(&a.resource_id))
        .map(|id| {
            let id = fill(id);
            id.rsplit('/').next().unwrap_or(&id).to_owned()
        })
        .collect()
}

/// The keys the script targets under ancestors with different ids: for those, the
/// ancestors are what tells one element from the other (a card's `container` in the
/// cast list and in the "known for" list).
fn told_apart_by_ancestors(scripts: &[Script], fill: &dyn Fn(&str) -> String) -> BTreeSet<String> {
    let mut chains: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
    for action in scripts.iter().flat_map(|s| &s.actions) {
        let Some(target) = action.elements.first() else {
            continue;
        };
        let key = match action.event {
            EventType::ViewClicked | EventType::ListItemClicked | EventType::ViewLongClicked => {
                target.click_key(fill)
            }
            EventType::ViewTextChanged => target.field_key(fill),
            _ => None,
        };
        if let Some(key) = key {
            chains
                .entry(key.to_key())
                .or_default()
                .insert(ancestor_ids(&action.elements, fill));
        }
    }
    chains
        .into_iter()
        .filter(|(_, chains)| chains.len() > 1)
        .map(|(key, _)| key)
        .collect()
}

/// Where a target sits in a list: its item's position and the list.
struct ListPlace {
    target: Option<ElementKey>,
    position: i64,
    list: String,
}

/// The nearest descriptor that is a list's child, with the list (its parent).
fn list_place(elements: &[Descriptor], fill: &dyn Fn(&str) -> String) -> Option<ListPlace> {
    let name = |d: &Descriptor| {
        nonempty(&d.resource_id)
            .map(fill)
            .or_else(|| nonempty(&d.class_name).map(str::to_owned))
    };
    let (at, item) = elements
        .iter()
        .enumerate()
        .find(|(_, d)| d.list_position().is_some())?;
    let target = elements.first().and_then(|d| {
        nonempty(&d.resource_id)
            .map(|id| ElementKey::Id(fill(id)))
            .or_else(|| nonempty(&d.class_name).map(|c| ElementKey::Class(c.to_owned())))
    });
    // Ancestors in the target's package are named by their `id/…` part alone, so the
    // words keep every id within the step's length.
    let package = match &target {
        Some(ElementKey::Id(id)) => id.split_once(":id/").map(|(p, _)| format!("{p}:")),
        _ => None,
    };
    let short = |id: String| match &package {
        Some(p) => id.strip_prefix(p.as_str()).map(str::to_owned).unwrap_or(id),
        None => id,
    };
    Some(ListPlace {
        position: item.list_position()?,
        list: elements
            .get(at + 1)
            .and_then(name)
            .map_or_else(|| "a list".to_owned(), short),
        target,
    })
}

impl ListPlace {
    /// The step kept and skipped: Whittle cannot replay "the Nth item of that list",
    /// and a tap on the bare id would hit whichever item comes first.
    fn skipped(&self, kind: ActionKind) -> ImportedAction {
        ImportedAction::Unlocatable {
            kind,
            element: self.target.clone(),
            gap: LocatorGap::ListPosition {
                position: u32::try_from(self.position).unwrap_or(u32::MAX),
                list: crate::session::clip_untrusted(&self.list, 100),
            },
        }
    }
}

impl Descriptor {
    /// What the widget shows: its text, else its description.
    fn shown_key(&self) -> Option<ElementKey> {
        nonempty(&self.text)
            .map(|t| ElementKey::Text(t.to_owned()))
            .or_else(|| {
                nonempty(&self.content_description).map(|l| ElementKey::Label(l.to_owned()))
            })
    }

    /// A `textRegex` of the form `(?i)<plain text>` and nothing else to match: the
    /// case-insensitive text Whittle's Robo export writes for a Maestro text selector,
    /// read back as that selector.
    fn case_insensitive_text(&self) -> Option<ElementKey> {
        let pattern = self.text_regex.as_deref()?.strip_prefix("(?i)")?;
        let others = [
            &self.resource_id,
            &self.resource_id_regex,
            &self.text,
            &self.content_description,
            &self.content_description_regex,
        ];
        let plain = !pattern.is_empty()
            && pattern
                .chars()
                .all(|c| c.is_alphanumeric() || " _-:/.".contains(c));
        (plain && others.iter().all(|o| nonempty(o).is_none())).then(|| ElementKey::Maestro {
            by_id: false,
            pattern: pattern.to_owned(),
            selector: Default::default(),
        })
    }

    fn has_regex(&self) -> bool {
        [
            &self.resource_id_regex,
            &self.text_regex,
            &self.content_description_regex,
        ]
        .iter()
        .any(|r| r.as_deref().is_some_and(|r| !r.is_empty()))
    }

    /// A click's target: its id, else the text it shows, else its description.
    fn click_key(&self, fill: &dyn Fn(&str) -> String) -> Option<ElementKey> {
        nonempty(&self.resource_id)
            .map(|id| ElementKey::Id(fill(id)))
            .or_else(|| nonempty(&self.text).map(|t| ElementKey::Text(t.to_owned())))
            .or_else(|| {
                nonempty(&self.content_description).map(|l| ElementKey::Label(l.to_owned()))
            })
            .or_else(|| nonempty(&self.class_name).map(|c| ElementKey::Class(c.to_owned())))
    }

    /// A text field: its id, else its description. Its `text` is what was typed.
    fn field_key(&self, fill: &dyn Fn(&str) -> String) -> Option<ElementKey> {
        nonempty(&self.resource_id)
            .map(|id| ElementKey::Id(fill(id)))
            .or_else(|| {
                nonempty(&self.content_description).map(|l| ElementKey::Label(l.to_owned()))
            })
            .or_else(|| nonempty(&self.class_name).map(|c| ElementKey::Class(c.to_owned())))
    }
}

fn nonempty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.trim().is_empty())
}

/// The text with comment lines blanked (line numbers stay) and an execution header
/// `"roboscript": {…}` blanked too; returns the header's line when there was one.
/// Refused when it nests deeper than [`crate::nesting::MAX_NESTING_DEPTH`], before any of
/// it is parsed (serde's recursion under `serde_path_to_error` costs kilobytes of stack
/// a level).
fn without_comments_and_header(text: &str) -> Result<(String, Option<usize>), TooDeep> {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || trimmed.starts_with("//") {
            // JSON strings cannot span lines, so a line that starts this way is a comment.
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            out.push_str(line);
        }
    }
    check_json_nesting(out.as_bytes())?;
    let start = out.len() - out.trim_start().len();
    let rest = &out[start..];
    let Some(after_key) = rest.strip_prefix("\"roboscript\"") else {
        return Ok((out, None));
    };
    let Some(colon) = after_key.trim_start().strip_prefix(':') else {
        return Ok((out, None));
    };
    let header_start = out.len() - colon.len();
    // The header is one JSON object; blank exactly it so the list after it parses.
    let mut stream = serde_json::Deserializer::from_str(colon).into_iter::<serde_json::Value>();
    let Some(Ok(serde_json::Value::Object(_))) = stream.next() else {
        return Ok((out, None));
    };
    let header_end = header_start + stream.byte_offset();
    let line = out[..start].matches('\n').count() + 1;
    let blanked: String = out[start..header_end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    out.replace_range(start..header_end, &blanked);
    Ok((out, Some(line)))
}

/// The line of each `"eventType"` key in document order, which is the order of the
/// actions (a context descriptor has none); the caller checks the count.
fn event_lines(json: &str) -> Option<Vec<usize>> {
    let mut lines = Vec::new();
    let mut line = 1;
    let bytes = json.as_bytes();
    let needle = b"\"eventType\"";
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            line += 1;
        } else if bytes[i..].starts_with(needle) {
            let after = json[i + needle.len()..].trim_start();
            if after.starts_with(':') {
                lines.push(line);
            }
            i += needle.len();
            continue;
        }
        i += 1;
    }
    Some(lines)
}

#[cfg(test)]
#[path = "robo/tests.rs"]
mod tests;
