//! The simulated devices and what every action does to them. Pure state transitions:
//! no sleeping and no tasks here; the server adds timing and delivers delayed crashes.
use std::sync::Arc;

use serde_json::{json, Value};
use whittle_contract::log::LogCrash;
use whittle_contract::ui::{Hierarchy, InputTextResult, Strategy, TapElementResult};

use super::device::{AppProcess, SimDevice};
use super::error::ActionError;
use super::logcat::logcat_line;
use super::model::{AppModel, Element, Trigger, EXIT};
use super::view::{app_hierarchy, current_elements, find};
use crate::device::capture::SharedCaptures;
use crate::device::{ButtonAnswer, Launched, Terminated};

mod crash_rules;

pub const APP_NOT_RUNNING: &str = "app_not_running";
pub const ELEMENT_NOT_FOUND: &str = "element_not_found";
pub const NOT_EDITABLE: &str = "element_not_editable";

/// A crash to deliver `delay_ms` after the action returns, if its process still lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelayedCrash {
    pub device: usize,
    pub generation: u64,
    pub rule: usize,
    pub delay_ms: u64,
}

/// The result of an action, plus the crashes it scheduled.
#[derive(Debug)]
pub struct ActionEffect<T> {
    pub result: T,
    pub delayed: Vec<DelayedCrash>,
}

impl<T> ActionEffect<T> {
    fn plain(result: T) -> ActionEffect<T> {
        ActionEffect {
            result,
            delayed: Vec::new(),
        }
    }
}

pub struct World {
    pub model: Arc<AppModel>,
    seed: u64,
    pub devices: Vec<SimDevice>,
    /// Where the devices' log lines go; shared with the backend, which starts and stops
    /// the captures.
    captures: Arc<SharedCaptures<()>>,
}

impl World {
    pub fn new(
        model: Arc<AppModel>,
        devices: u32,
        seed: u64,
        captures: Arc<SharedCaptures<()>>,
    ) -> World {
        World {
            model,
            seed,
            devices: (1..=devices).map(SimDevice::new).collect(),
            captures,
        }
    }

    /// The seed of the flaky-crash draws (given, or drawn from entropy at start).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn device_index(&self, id: &str) -> Result<usize, ActionError> {
        self.devices
            .iter()
            .position(|d| d.id == id)
            .ok_or_else(|| ActionError::UnknownDevice(id.to_string(), self.devices.len()))
    }

    fn check_package(&self, dev: usize, package: &str) -> Result<(), ActionError> {
        if package == self.model.package {
            Ok(())
        } else {
            Err(ActionError::UnknownPackage {
                device: self.devices[dev].id.clone(),
                package: package.to_string(),
            })
        }
    }

    pub fn launch(
        &mut self,
        dev: usize,
        package: &str,
    ) -> Result<ActionEffect<Launched>, ActionError> {
        self.check_package(dev, package)?;
        if self.devices[dev].app.is_some() {
            // `am start` on a running app only brings it to the front.
            return Ok(ActionEffect::plain(Launched {
                already_running: Some(true),
                ..Launched::done()
            }));
        }
        let model = Arc::clone(&self.model);
        let device = &mut self.devices[dev];
        device.launches += 1;
        let generation = device.launches;
        let pid = device.pid_for(generation);
        device.app = Some(AppProcess {
            generation,
            pid,
            screen: model.launch.screen.clone(),
            state: model.state.clone(),
            entered: Default::default(),
            focused: None,
        });
        self.log(
            dev,
            'I',
            "ActivityManager",
            &format!(
                "Start proc {pid}:{}/u0a{} for activity {}/.{}",
                model.package,
                100 + dev,
                model.package,
                model.launch.screen
            ),
        );
        let mut delayed = self.fire(dev, &Trigger::Launch);
        delayed.extend(self.fire(dev, &Trigger::Enter(model.launch.screen.clone())));
        Ok(ActionEffect {
            result: Launched {
                package: Some(model.package.clone()),
                ..Launched::done()
            },
            delayed,
        })
    }

    pub fn terminate(
        &mut self,
        dev: usize,
        package: &str,
    ) -> Result<ActionEffect<Terminated>, ActionError> {
        self.check_package(dev, package)?;
        let was_running = self.devices[dev].app.take();
        if let Some(app) = &was_running {
            self.log_pid(
                dev,
                app.pid,
                'I',
                "ActivityManager",
                &format!(
                    "Force stopping {} appid={}: from pid 1234",
                    self.model.package,
                    10_100 + dev
                ),
            );
        }
        Ok(ActionEffect::plain(Terminated {
            terminated: true,
            was_running: Some(was_running.is_some()),
        }))
    }

    pub fn press_button(
        &mut self,
        dev: usize,
        button: &str,
    ) -> Result<ActionEffect<ButtonAnswer>, ActionError> {
        if button != "BACK" {
            return Err(ActionError::UnsupportedButton(button.to_string()));
        }
        let Some(app) = &self.devices[dev].app else {
            return Ok(ActionEffect::plain(handled(Some(APP_NOT_RUNNING))));
        };
        let screen = app.screen.clone();
        self.log(dev, 'I', "ViewRootImpl", "KeyEvent BACK");
        let mut delayed = self.fire(
            dev,
            &Trigger::Back {
                screen: screen.clone(),
            },
        );
        let Some(app) = self.devices[dev].app.as_mut() else {
            return Ok(ActionEffect {
                result: handled(None),
                delayed,
            });
        };
        let target = self
            .model
            .screen(&screen)
            .map(|s| s.back.clone())
            .unwrap_or_else(|| EXIT.to_string());
        if target == EXIT {
            let pid = app.pid;
            self.devices[dev].app = None;
            self.log_pid(
                dev,
                pid,
                'I',
                "ActivityManager",
                "Process exited (back from task root)",
            );
        } else {
            app.screen = target.clone();
            app.focused = None;
            delayed.extend(self.fire(dev, &Trigger::Enter(target)));
        }
        Ok(ActionEffect {
            result: handled(None),
            delayed,
        })
    }

    /// A tap, or with `long` a long press: the element's `tap` or `long_press` effect. A tap
    /// on a field gives it the input focus, as on a phone.
    pub fn tap(
        &mut self,
        dev: usize,
        strategies: &[Strategy],
        long: bool,
    ) -> ActionEffect<TapElementResult> {
        let model = Arc::clone(&self.model);
        let Some(app) = &self.devices[dev].app else {
            return ActionEffect::plain(tapped(Some(APP_NOT_RUNNING)));
        };
        let elements = current_elements(&model, app);
        let Some(el) = find(&elements, strategies) else {
            return ActionEffect::plain(tapped(Some(ELEMENT_NOT_FOUND)));
        };
        let (screen, element, index) = (app.screen.clone(), el.model.id.clone(), el.index);
        let effect = if long {
            el.model.long_press.clone()
        } else {
            el.model.tap.clone()
        };
        let focusable = !long && is_field(el.model);
        let (l, t, r, b) = (
            el.model.bounds[0],
            el.model.bounds[1],
            el.model.bounds[2],
            el.model.bounds[3],
        );
        self.log(
            dev,
            'I',
            "ViewRootImpl",
            &format!(
                "{} {} at ({}, {})",
                if long { "long press" } else { "tap" },
                if element.is_empty() {
                    "<no id>"
                } else {
                    &element
                },
                (l + r) / 2,
                (t + b) / 2
            ),
        );
        let trigger = if long {
            Trigger::LongPress {
                screen: screen.clone(),
                element,
            }
        } else {
            Trigger::Tap {
                screen: screen.clone(),
                element,
            }
        };
        let mut delayed = self.fire(dev, &trigger);
        let Some(app) = self.devices[dev].app.as_mut() else {
            return ActionEffect {
                result: tapped(None),
                delayed,
            };
        };
        if focusable {
            app.focused = Some((screen, index));
        }
        if let Some(effect) = effect {
            for (k, v) in effect.set {
                app.state.insert(k, v);
            }
            for (k, by) in effect.incr {
                let now = app.state.get(&k).and_then(Value::as_i64).unwrap_or(0);
                app.state.insert(k, json!(now.saturating_add(by)));
            }
            if let Some(goto) = effect.goto {
                app.screen = goto.clone();
                app.focused = None;
                delayed.extend(self.fire(dev, &Trigger::Enter(goto)));
            }
        }
        ActionEffect {
            result: tapped(None),
            delayed,
        }
    }

    pub fn input_text(
        &mut self,
        dev: usize,
        strategies: &[Strategy],
        text: &str,
    ) -> ActionEffect<InputTextResult> {
        let model = Arc::clone(&self.model);
        let Some(app) = &self.devices[dev].app else {
            return ActionEffect::plain(typed(Some(APP_NOT_RUNNING)));
        };
        let elements = current_elements(&model, app);
        let Some(el) = find(&elements, strategies) else {
            return ActionEffect::plain(typed(Some(ELEMENT_NOT_FOUND)));
        };
        if !is_field(el.model) {
            return ActionEffect::plain(typed(Some(NOT_EDITABLE)));
        }
        let (screen, element, index) = (app.screen.clone(), el.model.id.clone(), el.index);
        let effect = el.model.input.clone();
        // The typed value may be private: the log carries only its length.
        self.log(
            dev,
            'I',
            "InputMethodManager",
            &format!(
                "commitText {} chars into {}",
                text.chars().count(),
                if element.is_empty() {
                    "<no id>"
                } else {
                    &element
                }
            ),
        );
        let delayed = self.fire(
            dev,
            &Trigger::Input {
                screen: screen.clone(),
                element,
            },
        );
        if let Some(app) = self.devices[dev].app.as_mut() {
            app.entered
                .insert((screen.clone(), index), text.to_string());
            app.focused = Some((screen, index));
            for (k, v) in effect.map(|e| e.set).unwrap_or_default() {
                let value = if v == json!("$text") { json!(text) } else { v };
                app.state.insert(k, value);
            }
        }
        ActionEffect {
            result: typed(None),
            delayed,
        }
    }

    pub fn hierarchy(&self, dev: usize) -> Hierarchy {
        let elements = match &self.devices[dev].app {
            Some(app) => app_hierarchy(&self.model, app),
            None => Vec::new(),
        };
        Hierarchy { elements }
    }

    pub fn element_present(&self, dev: usize, strategies: &[Strategy]) -> bool {
        self.devices[dev]
            .app
            .as_ref()
            .is_some_and(|app| find(&current_elements(&self.model, app), strategies).is_some())
    }

    pub fn clear_logs(&mut self, dev: usize) {
        self.devices[dev].clear_logs();
    }

    pub fn recent_crashes(&self, dev: usize, package: Option<&str>) -> Vec<LogCrash> {
        self.devices[dev].recent_crashes(package)
    }

    fn log(&mut self, dev: usize, level: char, tag: &str, message: &str) {
        let pid = self.devices[dev].app.as_ref().map_or(0, |a| a.pid);
        self.log_pid(dev, pid, level, tag, message);
    }

    fn log_pid(&mut self, dev: usize, pid: u32, level: char, tag: &str, message: &str) {
        let line = logcat_line(&chrono::Utc::now(), pid, level, tag, message);
        self.captures.lock().append(&self.devices[dev].id, &[line]);
    }
}

/// A press that reached the app (`None`), or why it did not.
/// Whether the element takes typed text (and so the focus when tapped).
fn is_field(element: &Element) -> bool {
    element.input.is_some() || element.class.ends_with("EditText")
}

fn handled(refused: Option<&str>) -> ButtonAnswer {
    ButtonAnswer::Handled {
        ok: refused.is_none(),
        reason: refused.map(str::to_string),
    }
}

fn tapped(refused: Option<&str>) -> TapElementResult {
    TapElementResult {
        tapped: refused.is_none(),
        reason: refused.map(str::to_string),
    }
}

fn typed(refused: Option<&str>) -> InputTextResult {
    InputTextResult {
        ok: refused.is_none(),
        reason: refused.map(str::to_string),
    }
}
