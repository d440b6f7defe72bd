//! Each backend's own words for each tool. The router defines every tool once; what a
//! tool does differs in detail between a simulator and `adb`, so its description is the
//! backend's. One field per tool: a backend cannot forget one.
use std::borrow::Cow;

use whittle_contract::{log, mobile, ui};

#[derive(Debug, Clone, Copy)]
pub struct ToolDescriptions {
    pub list_devices: &'static str,
    pub list_apps: &'static str,
    pub launch_app: &'static str,
    pub terminate_app: &'static str,
    pub press_button: &'static str,
    pub save_screenshot: &'static str,
    pub get_hierarchy: &'static str,
    pub wait_for_element: &'static str,
    pub tap_element: &'static str,
    pub long_press_element: &'static str,
    pub input_text: &'static str,
    pub clear_logs: &'static str,
    pub get_recent_crashes: &'static str,
    pub start_capture: &'static str,
    pub list_captures: &'static str,
    pub stop_capture: &'static str,
}

impl ToolDescriptions {
    /// The description of the contract tool `name`; `None` for a name outside the
    /// mobile, ui and log roles.
    pub fn of(&self, name: &str) -> Option<Cow<'static, str>> {
        let text = match name {
            mobile::LIST_DEVICES => self.list_devices,
            mobile::LIST_APPS => self.list_apps,
            mobile::LAUNCH_APP => self.launch_app,
            mobile::TERMINATE_APP => self.terminate_app,
            mobile::PRESS_BUTTON => self.press_button,
            mobile::SAVE_SCREENSHOT => self.save_screenshot,
            ui::GET_HIERARCHY => self.get_hierarchy,
            ui::WAIT_FOR_ELEMENT => self.wait_for_element,
            ui::TAP_ELEMENT => self.tap_element,
            ui::LONG_PRESS_ELEMENT => self.long_press_element,
            ui::INPUT_TEXT => self.input_text,
            log::CLEAR_LOGS => self.clear_logs,
            log::GET_RECENT_CRASHES => self.get_recent_crashes,
            log::START_CAPTURE => self.start_capture,
            log::LIST_CAPTURES => self.list_captures,
            log::STOP_CAPTURE => self.stop_capture,
            _ => return None,
        };
        Some(Cow::Borrowed(text))
    }
}
