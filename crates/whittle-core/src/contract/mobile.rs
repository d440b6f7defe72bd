//! `mobile` role: names and arguments as in the public mobile-mcp server.
use super::contract_type;

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
        pub id: String,
        #[serde(default)]
        pub name: String,
        #[serde(default)]
        pub platform: String,
        #[serde(rename = "type", default)]
        pub device_type: String,
        #[serde(default)]
        pub state: String,
        /// The OS version, e.g. "14" (mobile-mcp's `version`); optional in this contract.
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
        pub package: String,
        #[serde(default)]
        pub system: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub version_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
