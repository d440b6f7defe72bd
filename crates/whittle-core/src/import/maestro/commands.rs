//! The commands section: one [`ImportedStep`] per command, in order.

use std::collections::BTreeMap;

use saphyr::MarkedYaml;

use super::selector::{self, Target};
use super::yaml::{is_null, key_text, line_of, mapping, scalar_text, sequence, words, Doc};
use crate::import::{
    ElementKey, ImportError, ImportProblem, ImportedAction, ImportedStep, MAX_FLOW_STEPS,
};

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
    env: &'a BTreeMap<String, String>,
    /// The element the last `tapOn` named: where Maestro's `inputText` types.
    focused: Option<ElementKey>,
}

impl<'a> Commands<'a> {
    pub fn new(doc: &'a Doc<'a>, app_id: &'a str, env: &'a BTreeMap<String, String>) -> Self {
        Commands {
            doc,
            app_id,
            env,
            focused: None,
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
            "launchApp" => self.launch(value, &at)?,
            "tapOn" => self.tap(value, &at)?,
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
            command: name,
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

    fn launch(
        &mut self,
        value: Option<&MarkedYaml>,
        at: &str,
    ) -> Result<ImportedAction, ImportError> {
        self.focused = None;
        let app = match value {
            None => None,
            Some(v) => match scalar_text(v) {
                Some(app) => Some(app),
                None => {
                    let map = mapping(self.doc, v, at)?;
                    let mut app = None;
                    for (k, v) in map.iter() {
                        if matches!(key_text(self.doc, k, at)?.as_str(), "appId" | "url") {
                            app = scalar_text(v);
                        }
                    }
                    app
                }
            },
        };
        Ok(match app {
            Some(app) if app != self.app_id => unsupported("launch another app"),
            _ => ImportedAction::Launch,
        })
    }

    fn tap(&mut self, value: Option<&MarkedYaml>, at: &str) -> Result<ImportedAction, ImportError> {
        let Some(value) = value else {
            return Err(self.doc.error(
                None,
                Some(at.to_owned()),
                ImportProblem::BadValue("tapOn needs a selector (a text, or id/text/point)".into()),
            ));
        };
        let env = self.env;
        let resolve = |s: &str| substitute(s, env);
        let selector = selector::read(self.doc, value, at, &resolve)?;
        let element = match selector.target {
            Target::Inexpressible(what) => return Ok(unsupported(&what)),
            Target::Element(element) => element,
        };
        if selector.optional {
            // Maestro goes on when it is missing (so it may not have focused anything);
            // a replay would stop there.
            return Ok(unsupported("optional tap"));
        }
        self.focused = Some(element.clone());
        Ok(if selector.repeat > 1 {
            unsupported("repeated tap")
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
        Ok(ImportedAction::InputText {
            element: self.focused.clone(),
            value: substitute(&text, self.env),
            private: false,
        })
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

/// `${NAME}` replaced from the flow's env. `None` when the text uses a name the env
/// does not define or any other `${…}` expression (a script, an outside variable).
pub(super) fn substitute(text: &str, env: &BTreeMap<String, String>) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('}')?;
        out.push_str(env.get(after[..end].trim())?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}
