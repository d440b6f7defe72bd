//! `mobile` role: names and arguments as in the public mobile-mcp server.
use crate::{contract_type, lenient};

pub const LIST_DEVICES: &str = "mobile_list_available_devices";
pub const LIST_APPS: &str = "mobile_list_apps";
pub const LAUNCH_APP: &str = "mobile_launch_app";
pub const TERMINATE_APP: &str = "mobile_terminate_app";
pub const SAVE_SCREENSHOT: &str = "mobile_save_screenshot";
pub const PRESS_BUTTON: &str = "mobile_press_button";
pub const TOOLS: &[&str] = &[
    LIST_DEVICES,
    LIST_APPS,
    LAUNCH_APP,
    TERMINATE_APP,
    SAVE_SCREENSHOT,
    PRESS_BUTTON,
];

contract_type! {
    pub struct Device {
        /// Names the device in every later call (strict).
        pub id: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub name: String,
        /// Only `android` devices are offered; missing reads as "" (not Android).
        #[serde(default, deserialize_with = "lenient::text")]
        pub platform: String,
        #[serde(rename = "type", default, deserialize_with = "lenient::text")]
        pub device_type: String,
        /// Missing reads as "" (online).
        #[serde(default, deserialize_with = "lenient::text")]
        pub state: String,
        /// The OS version, e.g. "14" (mobile-mcp's `version`); optional in this contract,
        /// a number reads as its text (it only labels the export).
        #[opt_text]
        pub version: Option<String>,
    }
}

contract_type! {
    pub struct DeviceList {
        pub devices: Vec<Device>,
    }
}

contract_type! {
    pub struct App {
        /// Decides whether the crashing package is installed (strict).
        pub package: String,
        /// Missing reads as false (a user app); the client warns that it assumed so.
        #[serde(default)]
        pub system: bool,
        #[opt_text]
        pub version_name: Option<String>,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_count"
        )]
        pub version_code: Option<u32>,
    }
}

contract_type! {
    pub struct AppList {
        pub apps: Vec<App>,
    }
}

contract_type! {
    /// Arguments of `mobile_launch_app` and `mobile_terminate_app`.
    pub struct AppArgs {
        pub device: String,
        #[serde(rename = "packageName")]
        pub package_name: String,
    }
}

contract_type! {
    pub struct SaveScreenshotArgs {
        pub device: String,
        #[serde(rename = "saveTo")]
        pub save_to: String,
    }
}

contract_type! {
    pub struct SavedScreenshot {
        pub path: String,
        pub width: u32,
        pub height: u32,
    }
}

contract_type! {
    pub struct PressButtonArgs {
        pub device: String,
        pub button: String,
    }
}
