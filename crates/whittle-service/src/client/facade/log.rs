use whittle_contract::log::{
    CaptureList, GetRecentCrashesArgs, RecentCrashes, StartCaptureArgs, StartCaptureResult,
    StopCaptureArgs, StopCaptureResult, CLEAR_LOGS, GET_RECENT_CRASHES, START_CAPTURE,
    STOP_CAPTURE,
};
use whittle_contract::{DeviceArgs, Role};

use crate::client::{Hub, McpError};

/// The `log` role: crash records and the evidence capture.
#[derive(Clone, Copy)]
pub struct Log<'a> {
    hub: &'a Hub,
}

/// `hub.log()`, written beside the facade so the hub need not know its facades.
impl Hub {
    pub fn log(&self) -> Log<'_> {
        Log { hub: self }
    }
}

impl<'a> Log<'a> {
    pub async fn clear_logs(self, device: &str) -> Result<(), McpError> {
        let args = DeviceArgs {
            device: device.to_string(),
        };
        self.hub.call_unit(Role::Log, CLEAR_LOGS, &args).await
    }

    pub async fn get_recent_crashes(
        self,
        device: &str,
        package: Option<&str>,
    ) -> Result<RecentCrashes, McpError> {
        let args = GetRecentCrashesArgs {
            device: device.to_string(),
            package: package.map(str::to_string),
        };
        self.hub
            .call_typed(Role::Log, GET_RECENT_CRASHES, &args, 0)
            .await
    }

    pub async fn start_capture(
        self,
        session_id: &str,
        session_dir: &str,
        device: &str,
    ) -> Result<StartCaptureResult, McpError> {
        let args = StartCaptureArgs {
            session_id: session_id.to_string(),
            session_dir: session_dir.to_string(),
            device: device.to_string(),
        };
        self.hub
            .call_typed(Role::Log, START_CAPTURE, &args, 0)
            .await
    }

    /// In a pool across lab hosts: the captures of every host holding one of ours.
    pub async fn list_captures(self) -> Result<CaptureList, McpError> {
        self.hub.list_captures_routed().await
    }

    pub async fn stop_capture(self, session_id: &str) -> Result<StopCaptureResult, McpError> {
        let args = StopCaptureArgs {
            session_id: session_id.to_string(),
        };
        self.hub.call_typed(Role::Log, STOP_CAPTURE, &args, 0).await
    }
}
