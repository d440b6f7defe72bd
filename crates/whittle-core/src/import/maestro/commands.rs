//! The commands section: one [`ImportedStep`] per command, in order.

use saphyr::MarkedYaml;

use super::env::{variable_names, Variables};
use super::selector::{self, Target};
use super::yaml::{
    as_bool, flow_text, is_null, key_text, line_of, mapping, scalar_text, sequence, words, Doc,
};
use crate::import::privacy::{names_a_secret, names_contact_data};
use crate::import::{
    line_number, ElementKey, FieldFacts, ImportError, ImportNote, ImportProblem, ImportedAction,
    ImportedStep, LaunchOption, MAX_FLOW_STEPS,
};
use crate::sensitive::looks_sensitive_input;

/// Every command of Maestro's `YamlFluentCommand`; a name outside it is a typo that
/// Maestro refuses, so it is an error here too.
const COMMANDS: &[&str] = &[
    "tapOn",
    "doubleTapOn",
    "longPressOn",
    "assertVisible",
    "assertNotVisible",
    "assertTrue",
    "assertNoDefectsWithAI",
    "assertWithAI",
    "extractTextWithAI",
    "back",
    "clearKeychain",
    "hideKeyboard",
    "pasteText",
    "scroll",
    "inputText",
    "inputRandomText",
    "inputRandomNumber",
    "inputRandomEmail",
    "inputRandomPersonName",
    "launchApp",
    "swipe",
    "openLink",
    "openBrowser",
    "pressKey",
    "eraseText",
    "action",
    "takeScreenshot",
    "extendedWaitUntil",
    "stopApp",
    "killApp",
    "clearState",
    "runFlow",
    "setLocation",
    "repeat",
    "copyTextFrom",
    "runScript",
    "waitForAnimationToEnd",
    "evalScript",
    "scrollUntilVisible",
    "travel",
    "startRecording",
    "stopRecording",
    "addMedia",
    "setAirplaneMode",
    "toggleAirplaneMode",
    "retry",
];

/// The commands Maestro accepts as a bare word (`- back`), from its string parser.
const BARE_COMMANDS: &[&str] = &[
    "launchApp",
    "stopApp",
    "killApp",
    "clearState",
    "clearKeychain",
    "eraseText",
    "inputRandomText",
    "inputRandomNumber",
    "inputRandomEmail",
    "inputRandomPersonName",
    "back",
    "hide keyboard",
    "hideKeyboard",
    "pasteText",
    "scroll",
    "waitForAnimationToEnd",
    "stopRecording",
    "toggleAirplaneMode",
    "assertNoDefectsWithAI",
];

/// Maestro's key names (`KeyCode` descriptions), matched case-insensitively.
const KEYS: &[&str] = &[
    "Enter",
    "Backspace",
    "Back",
    "Home",
    "Lock",
    "Volume Up",
    "Volume Down",
    "Remote Dpad Up",
    "Remote Dpad Down",
    "Remote Dpad Left",
    "Remote Dpad Right",
    "Remote Dpad Center",
    "Remote Media Play Pause",
    "Remote Media Stop",
    "Remote Media Next",
    "Remote Media Previous",
    "Remote Media Rewind",
    "Remote Media Fast Forward",
    "Escape",
    "Power",
    "Tab",
    "Remote System Navigation Up",
    "Remote System Navigation Down",
    "Remote Button A",
    "Remote Button B",
    "Remote Menu",
    "TV Input",
    "TV Input HDMI 1",
    "TV Input HDMI 2",
    "TV Input HDMI 3",
];

pub(super) struct Commands<'a> {
    doc: &'a Doc<'a>,
    app_id: &'a str,
    vars: &'a Variables,
    /// A `launchApp` of the flow's app came before: the next one is a relaunch.
    launched: bool,
    /// The text or id the last tap or long press named: the words that say whether a
    /// value typed next is private (never where it is typed: that is the focus).
    last_named: Option<String>,
    /// What the person importing should know about the flow (launch options Whittle's
    /// replays do not apply).
    pub notes: Vec<ImportNote>,
}

impl<'a> Commands<'a> {
    pub fn new(doc: &'a Doc<'a>, app_id: &'a str, vars: &'a Variables) -> Self {
        Commands {
            doc,
            app_id,
            vars,
            launched: false,
            last_named: None,
            notes: Vec::new(),
        }
    }

    pub fn read(&mut self, node: &MarkedYaml) -> Result<Vec<ImportedStep>, ImportError> {
        let items = sequence(self.doc, node, "commands")?;
        if items.is_empty() {
            return Err(self
                .doc
                .error(Some(line_of(node)), None, ImportProblem::NoSteps));
        }
        if items.len() > MAX_FLOW_STEPS {
            return Err(self.doc.error(
                None,
                None,
                ImportProblem::TooManySteps {
                    limit: MAX_FLOW_STEPS,
                },
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.command(item, &format!("commands[{i}]")))
            .collect()
    }

    fn command(&mut self, item: &MarkedYaml, field: &str) -> Result<ImportedStep, ImportError> {
        let line = Some(line_of(item));
        let (name, value) = if let Some(word) = scalar_text(item) {
            if !BARE_COMMANDS.contains(&word.as_str()) {
                return Err(self.unknown(item, field, &word));
            }
            (word, None)
        } else {
            let map = mapping(self.doc, item, field)?;
            let mut entries = map.iter();
            let (Some((key, value)), None) = (entries.next(), entries.next()) else {
                return Err(self.doc.error(
                    line,
                    Some(field.to_owned()),
                    ImportProblem::Structure(format!(
                        "a command is one name with its arguments (found {} names)",
                        map.len()
                    )),
                ));
            };
            let name = key_text(self.doc, key, field)?;
            if !COMMANDS.contains(&name.as_str()) {
                return Err(self.unknown(key, field, &name));
            }
            (name, Some(value).filter(|v| !is_null(v)))
        };
        let at = format!("{field}.{name}");
        let action = match name.as_str() {
            "launchApp" => self.launch(value, &at, line)?,
            "tapOn" => self.tap(value, &at, false)?,
            "longPressOn" => self.tap(value, &at, true)?,
            "inputText" => self.input(value, &at)?,
            "back" => back(),
            "action" => match value.and_then(scalar_text).as_deref() {
                Some("back") => back(),
                Some(other) => unsupported(other),
                None => unsupported("action"),
            },
            "pressKey" => self.press_key(value, &at)?,
            "runFlow" => unsupported("run another flow"),
            "hide keyboard" => unsupported("hide keyboard"),
            other => unsupported(&words(other)),
        };
        Ok(ImportedStep {
            line,
            source: Some(flow_text(item)),
            command: name,
            field: self.field_facts(&action),
            action,
        })
    }

    fn unknown(&self, node: &MarkedYaml, field: &str, name: &str) -> ImportError {
        self.doc.error(
            Some(line_of(node)),
            Some(field.to_owned()),
            ImportProblem::UnknownCommand {
                format: "Maestro",
                name: format!("{:?}", crate::session::clip_untrusted(name, 40)),
            },
        )
    }

    /// The first `launchApp` is the launch every replay starts with (its options a note);
    /// a later one is a relaunch step, or a kept step when it needs what the device role
    /// cannot do.
    fn launch(
        &mut self,
        value: Option<&MarkedYaml>,
        at: &str,
        line: Option<usize>,
    ) -> Result<ImportedAction, ImportError> {
        let mut app = None;
        let mut stop_app = true;
        let mut options = Vec::new();
        if let Some(v) = value {
            match scalar_text(v) {
                Some(text) => app = Some(text),
                None => {
                    for (k, v) in mapping(self.doc, v, at)?.iter() {
                        let key = key_text(self.doc, k, at)?;
                        match key.as_str() {
                            "appId" | "url" => app = scalar_text(v),
                            "stopApp" => stop_app = as_bool(v).unwrap_or(true),
                            other => {
                                let asked = as_bool(v) != Some(false) && !is_null(v);
                                // Options that change what the app starts with: the
                                // device role has no way to apply them.
                                if let Some((_, option)) =
                                    LaunchOption::ALL.iter().find(|(name, _)| *name == other)
                                {
                                    if asked {
                                        options.push(*option);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if app.is_some_and(|app| app != self.app_id) {
            return Ok(unsupported("launch another app"));
        }
        if !self.launched {
            self.launched = true;
            let line = line.map(line_number);
            for option in options {
                self.notes.push(ImportNote::LaunchOption { option, line });
            }
            if !stop_app {
                self.notes.push(ImportNote::KeepsRunningApp { line });
            }
            return Ok(ImportedAction::Launch);
        }
        Ok(match options.first() {
            Some(option) => unsupported(&format!("relaunch that {}", option.action_words())),
            None => ImportedAction::Relaunch { stop_app },
        })
    }

    /// `tapOn` or, with `long`, `longPressOn`.
    fn tap(
        &mut self,
        value: Option<&MarkedYaml>,
        at: &str,
        long: bool,
    ) -> Result<ImportedAction, ImportError> {
        let verb = if long { "long press" } else { "tap" };
        let Some(value) = value else {
            return Err(self.doc.error(
                None,
                Some(at.to_owned()),
                ImportProblem::BadValue(format!(
                    "{verb} needs a selector (a text, or id/text/point)"
                )),
            ));
        };
        let vars = self.vars;
        let resolve = |s: &str| vars.substitute(s);
        let selector = selector::read(self.doc, value, at, &resolve)?;
        let element = match selector.target {
            Target::Inexpressible(what) => return Ok(unsupported(&format!("{verb} with {what}"))),
            Target::Element(element) => element,
        };
        if selector.optional {
            // Maestro goes on when it is missing; a replay would stop there.
            return Ok(unsupported(&format!("optional {verb}")));
        }
        if let ElementKey::Maestro { pattern, .. } = &element {
            self.last_named = Some(pattern.clone());
        }
        Ok(if selector.repeat > 1 {
            unsupported(&format!("repeated {verb}"))
        } else if long {
            ImportedAction::LongPress { element }
        } else {
            ImportedAction::Tap { element }
        })
    }

    fn input(&self, value: Option<&MarkedYaml>, at: &str) -> Result<ImportedAction, ImportError> {
        let text = match value {
            None => None,
            Some(v) => match scalar_text(v) {
                Some(text) => Some(text),
                None => {
                    let map = mapping(self.doc, v, at)?;
                    let mut text = None;
                    for (k, v) in map.iter() {
                        if key_text(self.doc, k, at)? == "text" {
                            text = scalar_text(v);
                        }
                    }
                    text
                }
            },
        };
        let Some(text) = text else {
            return Err(self.doc.error(
                value.map(line_of),
                Some(at.to_owned()),
                ImportProblem::BadValue("inputText needs the text to type".into()),
            ));
        };
        // Maestro types into whichever field has the focus, whatever came before; the
        // field last named and the variables' names still tell whether what is typed
        // there is private.
        let Some(value) = self.vars.substitute(&text) else {
            return Ok(ImportedAction::InputUnknown {
                element: Some(ElementKey::Focused),
                variable: self.vars.unknown_in(&text).unwrap_or_default(),
            });
        };
        let field = self.last_named.as_deref();
        let private = names_a_secret(variable_names(&text))
            || field.is_some_and(|field| looks_sensitive_input(field, &value));
        Ok(ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: Some(value),
            private,
        })
    }

    /// What the flow says of the field the command at hand types into: a field last
    /// named for contact data is a plain one (its values are private by their shape).
    pub fn field_facts(&self, action: &ImportedAction) -> FieldFacts {
        match (action, self.last_named.as_deref()) {
            (ImportedAction::InputText { .. }, Some(field)) if names_contact_data([field]) => {
                FieldFacts::Plain
            }
            _ => FieldFacts::Silent,
        }
    }

    fn press_key(
        &self,
        value: Option<&MarkedYaml>,
        at: &str,
    ) -> Result<ImportedAction, ImportError> {
        let name = value.and_then(|v| {
            scalar_text(v).or_else(|| {
                let map = mapping(self.doc, v, at).ok()?;
                map.iter()
                    .find(|(k, _)| scalar_text(k).as_deref() == Some("key"))
                    .and_then(|(_, v)| scalar_text(v))
            })
        });
        let known = name
            .as_deref()
            .and_then(|n| KEYS.iter().find(|k| k.eq_ignore_ascii_case(n.trim())));
        let Some(key) = known else {
            return Err(self.doc.error(
                value.map(line_of),
                Some(at.to_owned()),
                ImportProblem::BadValue(format!(
                    "unknown key name {:?} (Maestro knows Back, Home, Enter, …)",
                    crate::session::clip_untrusted(name.as_deref().unwrap_or(""), 40)
                )),
            ));
        };
        Ok(ImportedAction::PressButton {
            button: key.to_ascii_uppercase().replace(' ', "_"),
        })
    }
}

fn back() -> ImportedAction {
    ImportedAction::PressButton {
        button: "BACK".into(),
    }
}

fn unsupported(what: &str) -> ImportedAction {
    ImportedAction::Unsupported {
        what: crate::session::clip_untrusted(what, 40),
    }
}
