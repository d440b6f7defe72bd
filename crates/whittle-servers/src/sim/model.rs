//! The simulated app model (docs/design.md §6) as typed values, loaded strictly: unknown fields
//! and dangling screen references are refused with the JSON path of the culprit.
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use whittle_core::model::CrashKind;

use super::condition::Condition;
use super::error::ModelError;

/// Phone-sized default, so screenshots look like a real device's.
pub const DEFAULT_SCREEN_SIZE: [u32; 2] = [1080, 2400];
/// Larger screens make no sense for a phone and would only cost memory per screenshot.
const MAX_SCREEN_SIDE: u32 = 4096;
/// The `back` target that closes the app.
pub const EXIT: &str = "exit";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppModel {
    pub package: String,
    pub version: InstalledVersion,
    pub launch: LaunchSpec,
    #[serde(default)]
    pub state: BTreeMap<String, Value>,
    pub screens: BTreeMap<String, Screen>,
    #[serde(default)]
    pub crashes: Vec<CrashRule>,
    #[serde(default)]
    pub timing: DeviceTiming,
    #[serde(default = "default_screen_size")]
    pub screen_size: [u32; 2],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstalledVersion {
    pub name: String,
    pub code: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchSpec {
    pub screen: String,
    #[serde(default)]
    pub anchor: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Screen {
    #[serde(default = "default_back")]
    pub back: String,
    #[serde(default)]
    pub elements: Vec<Element>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    #[serde(default)]
    pub id: String,
    #[serde(default = "default_class")]
    pub class: String,
    /// May reference state as `$name` (e.g. `"Cart ($cart)"`).
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub desc: String,
    pub bounds: [i32; 4],
    #[serde(default)]
    pub password: bool,
    #[serde(default = "default_true")]
    pub visible: bool,
    /// What an empty field shows (matched by Maestro's text selectors).
    #[serde(default)]
    pub hint: String,
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// `None`: not a checkable element (the hierarchy then does not say).
    #[serde(default)]
    pub checked: Option<bool>,
    #[serde(default)]
    pub tap: Option<TapEffect>,
    /// What a long press does; without one a long press changes nothing.
    #[serde(default)]
    pub long_press: Option<TapEffect>,
    #[serde(default)]
    pub input: Option<InputEffect>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TapEffect {
    #[serde(default)]
    pub goto: Option<String>,
    #[serde(default)]
    pub set: BTreeMap<String, Value>,
    #[serde(default)]
    pub incr: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputEffect {
    /// Values equal to `"$text"` take the entered text; others are set as given.
    #[serde(default)]
    pub set: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrashRule {
    pub name: String,
    pub kind: CrashKind,
    /// Defaults to the model's package.
    #[serde(default)]
    pub process: Option<String>,
    pub on: TriggerSpec,
    #[serde(default)]
    pub when: BTreeMap<String, Condition>,
    #[serde(default = "default_probability")]
    pub probability: f64,
    #[serde(default)]
    pub delay_ms: u64,
    pub stack: String,
}

/// `on` as written: `{"launch": true}`, `{"enter": s}` or `{"screen": s, "tap"|"long_press"|"input": id}`
/// / `{"screen": s, "back": true}`; [`AppModel::load`] checks exactly one shape is used.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerSpec {
    #[serde(default)]
    pub launch: Option<bool>,
    #[serde(default)]
    pub enter: Option<String>,
    #[serde(default)]
    pub screen: Option<String>,
    #[serde(default)]
    pub tap: Option<String>,
    #[serde(default)]
    pub long_press: Option<String>,
    #[serde(default)]
    pub input: Option<String>,
    #[serde(default)]
    pub back: Option<bool>,
}

/// What happened on the device, to be matched against crash rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    Launch,
    Enter(String),
    Tap { screen: String, element: String },
    LongPress { screen: String, element: String },
    Input { screen: String, element: String },
    Back { screen: String },
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceTiming {
    #[serde(default)]
    pub launch_ms: u64,
    #[serde(default)]
    pub action_ms: u64,
}

fn default_screen_size() -> [u32; 2] {
    DEFAULT_SCREEN_SIZE
}
fn default_back() -> String {
    EXIT.to_string()
}
fn default_class() -> String {
    "android.view.View".to_string()
}
fn default_true() -> bool {
    true
}
fn default_probability() -> f64 {
    1.0
}

/// A crash rule's `on` is not exactly one of the trigger shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "must be one of {{\"launch\": true}}, {{\"enter\": screen}}, \
     {{\"screen\", \"tap\": id}}, {{\"screen\", \"long_press\": id}}, \
     {{\"screen\", \"input\": id}}, {{\"screen\", \"back\": true}}"
)]
pub struct TriggerShapeError;

impl TriggerSpec {
    /// The single trigger this spec describes, or why it is not one.
    pub fn to_trigger(&self) -> Result<Trigger, TriggerShapeError> {
        let t = self;
        match (
            t.launch,
            &t.enter,
            &t.screen,
            (&t.tap, &t.long_press, &t.input),
            t.back,
        ) {
            (Some(true), None, None, (None, None, None), None) => Ok(Trigger::Launch),
            (None, Some(s), None, (None, None, None), None) => Ok(Trigger::Enter(s.clone())),
            (None, None, Some(s), (Some(e), None, None), None) => Ok(Trigger::Tap {
                screen: s.clone(),
                element: e.clone(),
            }),
            (None, None, Some(s), (None, Some(e), None), None) => Ok(Trigger::LongPress {
                screen: s.clone(),
                element: e.clone(),
            }),
            (None, None, Some(s), (None, None, Some(e)), None) => Ok(Trigger::Input {
                screen: s.clone(),
                element: e.clone(),
            }),
            (None, None, Some(s), (None, None, None), Some(true)) => {
                Ok(Trigger::Back { screen: s.clone() })
            }
            _ => Err(TriggerShapeError),
        }
    }
}

impl CrashRule {
    pub fn process<'a>(&'a self, model: &'a AppModel) -> &'a str {
        self.process.as_deref().unwrap_or(&model.package)
    }
}

impl AppModel {
    pub fn load(path: &Path) -> Result<AppModel, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses and validates; `origin` only names the source in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<AppModel, ModelError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let model: AppModel =
            serde_path_to_error::deserialize(de).map_err(|e| ModelError::Parse {
                path: origin.to_path_buf(),
                field: e.path().to_string(),
                message: e.inner().to_string(),
            })?;
        model
            .validate()
            .map_err(|(field, message)| ModelError::Invalid {
                path: origin.to_path_buf(),
                field,
                message,
            })?;
        Ok(model)
    }

    pub fn screen(&self, name: &str) -> Option<&Screen> {
        self.screens.get(name)
    }

    fn validate(&self) -> Result<(), (String, String)> {
        let known = |s: &str| self.screens.contains_key(s);
        if self.package.trim().is_empty() {
            return Err(("package".into(), "must not be empty".into()));
        }
        if !known(&self.launch.screen) {
            return Err((
                "launch.screen".into(),
                format!("unknown screen {:?}", self.launch.screen),
            ));
        }
        let [w, h] = self.screen_size;
        if w == 0 || h == 0 || w > MAX_SCREEN_SIDE || h > MAX_SCREEN_SIDE {
            return Err((
                "screen_size".into(),
                format!("each side must be 1..={MAX_SCREEN_SIDE}"),
            ));
        }
        for (name, screen) in &self.screens {
            if screen.back != EXIT && !known(&screen.back) {
                return Err((
                    format!("screens.{name}.back"),
                    format!(
                        "unknown screen {:?} (use \"exit\" to close the app)",
                        screen.back
                    ),
                ));
            }
            for (i, el) in screen.elements.iter().enumerate() {
                let [l, t, r, b] = el.bounds;
                if r <= l || b <= t {
                    return Err((
                        format!("screens.{name}.elements[{i}].bounds"),
                        "must be [left, top, right, bottom] with right > left and bottom > top"
                            .into(),
                    ));
                }
                for (effect, field) in [(&el.tap, "tap"), (&el.long_press, "long_press")] {
                    if let Some(goto) = effect.as_ref().and_then(|t| t.goto.as_deref()) {
                        if !known(goto) {
                            return Err((
                                format!("screens.{name}.elements[{i}].{field}.goto"),
                                format!("unknown screen {goto:?}"),
                            ));
                        }
                    }
                }
            }
        }
        for (i, rule) in self.crashes.iter().enumerate() {
            let field = |f: &str| format!("crashes[{i}].{f}");
            if !(0.0..=1.0).contains(&rule.probability) || rule.probability.is_nan() {
                return Err((field("probability"), "must be between 0 and 1".into()));
            }
            let trigger = rule
                .on
                .to_trigger()
                .map_err(|e| (field("on"), e.to_string()))?;
            let screen = match &trigger {
                Trigger::Launch => None,
                Trigger::Enter(s) | Trigger::Back { screen: s } => Some(s),
                Trigger::Tap { screen, .. }
                | Trigger::LongPress { screen, .. }
                | Trigger::Input { screen, .. } => Some(screen),
            };
            if let Some(s) = screen {
                if !known(s) {
                    return Err((field("on"), format!("unknown screen {s:?}")));
                }
            }
            if let Trigger::Tap { screen, element }
            | Trigger::LongPress { screen, element }
            | Trigger::Input { screen, element } = &trigger
            {
                let on_screen = self.screens[screen]
                    .elements
                    .iter()
                    .any(|e| &e.id == element);
                if !on_screen {
                    return Err((
                        field("on"),
                        format!("no element {element:?} on screen {screen:?}"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn base() -> Value {
        json!({
          "package": "p", "version": {"name": "1", "code": 1},
          "launch": {"screen": "home"},
          "screens": {"home": {"elements": [
            {"id": "p:id/a", "text": "A", "bounds": [0, 0, 10, 10], "tap": {"goto": "home"}}]}},
          "crashes": [{"name": "c", "kind": "java", "on": {"screen": "home", "tap": "p:id/a"}, "stack": "x"}]
        })
    }

    fn error_of(v: Value) -> String {
        AppModel::parse(&v.to_string(), Path::new("m.json"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn defaults_fill_in() {
        let m = AppModel::parse(&base().to_string(), Path::new("m.json")).unwrap();
        assert_eq!(m.screen_size, DEFAULT_SCREEN_SIZE);
        assert_eq!(m.screens["home"].back, EXIT);
        assert_eq!(m.crashes[0].probability, 1.0);
        assert_eq!(m.crashes[0].process(&m), "p");
        assert!(m.screens["home"].elements[0].visible);
    }

    #[test]
    fn errors_name_the_field() {
        let mut v = base();
        v["launch"]["screen"] = json!("nowhere");
        assert!(error_of(v).contains("launch.screen"));
        let mut v = base();
        v["screens"]["home"]["elements"][0]["tap"]["goto"] = json!("nowhere");
        assert!(error_of(v).contains("screens.home.elements[0].tap.goto"));
        let mut v = base();
        v["screens"]["home"]["back"] = json!("nowhere");
        assert!(error_of(v).contains("screens.home.back"));
        let mut v = base();
        v["crashes"][0]["on"] = json!({"launch": true, "enter": "home"});
        assert!(error_of(v).contains("crashes[0].on"));
        let mut v = base();
        v["crashes"][0]["on"]["tap"] = json!("p:id/missing");
        assert!(error_of(v).contains("no element"));
        let mut v = base();
        v["crashes"][0]["probability"] = json!(1.5);
        assert!(error_of(v).contains("crashes[0].probability"));
        let mut v = base();
        v["crashes"][0]["when"] = json!({"n": {"~": 1}});
        assert!(error_of(v).contains("crashes[0].when"));
        let mut v = base();
        v["screens"]["home"]["elements"][0]["bounds"] = json!([10, 0, 0, 10]);
        assert!(error_of(v).contains("bounds"));
        let mut v = base();
        v["colour"] = json!("red");
        assert!(error_of(v).contains("colour"));
    }
}
