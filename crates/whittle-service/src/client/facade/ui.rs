use whittle_contract::ui::{
    Hierarchy, InputTextArgs, InputTextResult, Strategy, TapElementArgs, TapElementResult,
    WaitForElementArgs, WaitForElementResult, GET_HIERARCHY, INPUT_TEXT, LONG_PRESS_ELEMENT,
    LONG_PRESS_MS, TAP_ELEMENT, WAIT_FOR_ELEMENT,
};
use whittle_contract::{DeviceArgs, Role};

use crate::client::{Hub, McpError};

/// The `ui` role: hierarchy and element actions. Calls that wait on the device get
/// that wait added to the per-call timeout.
#[derive(Clone, Copy)]
pub struct Ui<'a> {
    hub: &'a Hub,
}

/// `hub.ui()`, written beside the facade so the hub need not know its facades.
impl Hub {
    pub fn ui(&self) -> Ui<'_> {
        Ui { hub: self }
    }
}

impl<'a> Ui<'a> {
    pub async fn get_hierarchy(self, device: &str) -> Result<Hierarchy, McpError> {
        let args = DeviceArgs {
            device: device.to_string(),
        };
        self.hub.call_typed(Role::Ui, GET_HIERARCHY, &args, 0).await
    }

    pub async fn wait_for_element(
        self,
        device: &str,
        strategies: &[Strategy],
        timeout_ms: u32,
    ) -> Result<WaitForElementResult, McpError> {
        let args = WaitForElementArgs {
            device: device.to_string(),
            strategies: strategies.to_vec(),
            timeout_ms,
        };
        self.hub
            .call_typed(Role::Ui, WAIT_FOR_ELEMENT, &args, timeout_ms)
            .await
    }

    pub async fn tap_element(
        self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, McpError> {
        self.press(TAP_ELEMENT, 0, device, strategies, settle_ms)
            .await
    }

    /// Presses the element for `ui::LONG_PRESS_MS`; answers as a tap does.
    pub async fn long_press_element(
        self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, McpError> {
        self.press(
            LONG_PRESS_ELEMENT,
            LONG_PRESS_MS,
            device,
            strategies,
            settle_ms,
        )
        .await
    }

    /// `tool` is `tap_element` or `long_press_element`: the same arguments and answer;
    /// the call may take the press (`held_ms`) and the settle.
    async fn press(
        self,
        tool: &str,
        held_ms: u32,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, McpError> {
        let args = TapElementArgs {
            device: device.to_string(),
            strategies: strategies.to_vec(),
            settle_ms,
        };
        self.hub
            .call_typed(Role::Ui, tool, &args, settle_ms.saturating_add(held_ms))
            .await
    }

    /// `text` is never logged (debug logs show `[redacted]`).
    pub async fn input_text(
        self,
        device: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> Result<InputTextResult, McpError> {
        let args = InputTextArgs {
            device: device.to_string(),
            strategies: strategies.to_vec(),
            text: text.to_string(),
        };
        self.hub.call_typed(Role::Ui, INPUT_TEXT, &args, 0).await
    }
}
