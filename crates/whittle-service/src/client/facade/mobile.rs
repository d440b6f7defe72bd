use whittle_contract::mobile::{
    AppArgs, AppList, DeviceList, PressButtonArgs, SaveScreenshotArgs, SavedScreenshot, LAUNCH_APP,
    LIST_APPS, PRESS_BUTTON, SAVE_SCREENSHOT, TERMINATE_APP,
};
use whittle_contract::{DeviceArgs, Role};

use crate::client::prose::{read_apps, read_screenshot};
use crate::client::{Hub, McpError};

/// The `mobile` role: devices, apps, screenshots, buttons (mobile-mcp's names).
#[derive(Clone, Copy)]
pub struct Mobile<'a> {
    hub: &'a Hub,
}

/// `hub.mobile()`, written beside the facade so the hub need not know its facades.
impl Hub {
    pub fn mobile(&self) -> Mobile<'_> {
        Mobile { hub: self }
    }
}

impl<'a> Mobile<'a> {
    /// Every online and offline device; in a pool across lab hosts, the union of the
    /// hosts' lists with ids qualified (`labA/sim-1`) where two hosts list the same id.
    pub async fn list_devices(self) -> Result<DeviceList, McpError> {
        self.hub.list_devices_routed().await
    }

    /// The installed apps. The public mobile-mcp answers in prose; that is read in its
    /// format (every app then counts as a user app) and warned about.
    pub async fn list_apps(self, device: &str) -> Result<AppList, McpError> {
        let args = DeviceArgs {
            device: device.to_string(),
        };
        self.hub
            .call_read(Role::Mobile, LIST_APPS, &args, 0, read_apps)
            .await
    }

    pub async fn launch_app(self, device: &str, package: &str) -> Result<(), McpError> {
        self.hub
            .call_unit(Role::Mobile, LAUNCH_APP, &app_args(device, package))
            .await
    }

    pub async fn terminate_app(self, device: &str, package: &str) -> Result<(), McpError> {
        self.hub
            .call_unit(Role::Mobile, TERMINATE_APP, &app_args(device, package))
            .await
    }

    /// Saves a screenshot to `save_to`. A server that answers in prose (the public
    /// mobile-mcp does) is accepted when the file it wrote is a readable image; its size
    /// is then read from the file, and the prose answer warned about.
    pub async fn save_screenshot(
        self,
        device: &str,
        save_to: &str,
    ) -> Result<SavedScreenshot, McpError> {
        let args = SaveScreenshotArgs {
            device: device.to_string(),
            save_to: save_to.to_string(),
        };
        self.hub
            .call_read(Role::Mobile, SAVE_SCREENSHOT, &args, 0, |r| {
                read_screenshot(r, save_to)
            })
            .await
    }

    pub async fn press_button(self, device: &str, button: &str) -> Result<(), McpError> {
        let args = PressButtonArgs {
            device: device.to_string(),
            button: button.to_string(),
        };
        self.hub.call_unit(Role::Mobile, PRESS_BUTTON, &args).await
    }
}

fn app_args(device: &str, package: &str) -> AppArgs {
    AppArgs {
        device: device.to_string(),
        package_name: package.to_string(),
    }
}
