//! The MCP face of the adb backend: the mobile, ui and log tools of docs/design.md §2, with the
//! simulator's result conventions. Tool names are literals (the macro needs them); a test
//! checks them against the contract constants.
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde_json::json;
use tokio::sync::Mutex;
use whittle_core::contract::log::{
    CaptureList, GetRecentCrashesArgs, RecentCrashes, StartCaptureArgs, StartCaptureResult,
    StopCaptureArgs,
};
use whittle_core::contract::mobile::{
    AppArgs, AppList, DeviceList, PressButtonArgs, SaveScreenshotArgs, SavedScreenshot,
};
use whittle_core::contract::ui::{
    Hierarchy, InputTextArgs, InputTextResult, TapElementArgs, TapElementResult,
    WaitForElementArgs, WaitForElementResult,
};
use whittle_core::contract::DeviceArgs;

use super::backend::{ActionOutcome, Backend};
use super::capture::Captures;
use super::hierarchy::find;
use crate::tool_result::{fail, ok};

/// A dump takes about a second on a real device; polling faster only queues dumps.
const WAIT_POLL: Duration = Duration::from_millis(500);

type ToolResult = Result<CallToolResult, ErrorData>;

#[derive(Clone)]
pub struct AdbServer {
    backend: Arc<Backend>,
    captures: Arc<Mutex<Captures>>,
    /// uiautomator writes one dump file per device; two dumps at once would mix.
    ui: Arc<Mutex<()>>,
}

impl AdbServer {
    pub fn new(backend: Backend) -> AdbServer {
        AdbServer {
            backend: Arc::new(backend),
            captures: Arc::new(Mutex::new(Captures::default())),
            ui: Arc::new(Mutex::new(())),
        }
    }
}

fn done<E: std::fmt::Display>(r: Result<(), E>, value: serde_json::Value) -> CallToolResult {
    match r {
        Ok(()) => ok(&value),
        Err(e) => fail(e.to_string()),
    }
}

#[tool_router]
impl AdbServer {
    #[tool(
        name = "mobile_list_available_devices",
        description = "List the Android devices adb sees (adb devices -l)."
    )]
    async fn list_devices(&self) -> ToolResult {
        Ok(match self.backend.devices().await {
            Ok(devices) => ok(&DeviceList { devices }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "mobile_list_apps",
        description = "List the packages installed on a device, with the system flag and, for other apps, their version."
    )]
    async fn list_apps(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        Ok(match self.backend.apps(&a.device).await {
            Ok(apps) => ok(&AppList { apps }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "mobile_launch_app",
        description = "Launch an app through its launcher activity (monkey)."
    )]
    async fn launch_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        let r = self.backend.launch(&a.device, &a.package_name).await;
        Ok(done(r, json!({"launched": true})))
    }

    #[tool(
        name = "mobile_terminate_app",
        description = "Force-stop an app (am force-stop)."
    )]
    async fn terminate_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        let r = self.backend.terminate(&a.device, &a.package_name).await;
        Ok(done(r, json!({"terminated": true})))
    }

    #[tool(
        name = "mobile_press_button",
        description = "Press a device button: BACK, HOME, ENTER, VOLUME_UP, VOLUME_DOWN, DPAD_*."
    )]
    async fn press_button(&self, Parameters(a): Parameters<PressButtonArgs>) -> ToolResult {
        let r = self.backend.press_button(&a.device, &a.button).await;
        Ok(done(r, json!({"pressed": true})))
    }

    #[tool(
        name = "mobile_save_screenshot",
        description = "Save a PNG screenshot (screencap) to an absolute path."
    )]
    async fn save_screenshot(&self, Parameters(a): Parameters<SaveScreenshotArgs>) -> ToolResult {
        Ok(match self.backend.screenshot(&a.device, &a.save_to).await {
            Ok((width, height)) => ok(&SavedScreenshot {
                path: a.save_to,
                width,
                height,
            }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "get_hierarchy",
        description = "The UI elements of the current screen (uiautomator dump)."
    )]
    async fn get_hierarchy(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        let _ui = self.ui.lock().await;
        Ok(match self.backend.hierarchy(&a.device).await {
            Ok(elements) => ok(&Hierarchy { elements }),
            Err(e) => fail(e.to_string()),
        })
    }

    /// "Not found" needs at least one good dump; if every dump failed it is a device
    /// error, which a client must not read as a plain negative.
    #[tool(
        name = "wait_for_element",
        description = "Wait until an element is on screen."
    )]
    async fn wait_for_element(&self, Parameters(a): Parameters<WaitForElementArgs>) -> ToolResult {
        let deadline = Instant::now() + Duration::from_millis(u64::from(a.timeout_ms));
        let mut dumped = false;
        let mut last_error = None;
        loop {
            let dump = {
                let _ui = self.ui.lock().await;
                self.backend.hierarchy(&a.device).await
            };
            match dump {
                Ok(elements) => {
                    dumped = true;
                    if find(&elements, &a.strategies).is_some() {
                        return Ok(ok(&WaitForElementResult { found: true }));
                    }
                }
                Err(e) => last_error = Some(e.to_string()),
            }
            if Instant::now() >= deadline {
                return Ok(match (dumped, last_error) {
                    (false, Some(e)) => fail(e),
                    _ => ok(&WaitForElementResult { found: false }),
                });
            }
            tokio::time::sleep(WAIT_POLL.min(deadline.saturating_duration_since(Instant::now())))
                .await;
        }
    }

    #[tool(
        name = "tap_element",
        description = "Tap the visible element a strategy finds (text compared with whitespace collapsed, ids with or without the package), through its nearest clickable ancestor."
    )]
    async fn tap_element(&self, Parameters(a): Parameters<TapElementArgs>) -> ToolResult {
        let outcome = {
            let _ui = self.ui.lock().await;
            self.backend.tap(&a.device, &a.strategies).await
        };
        Ok(match outcome {
            Ok(ActionOutcome::Done) => {
                if a.settle_ms > 0 {
                    tokio::time::sleep(Duration::from_millis(u64::from(a.settle_ms))).await;
                }
                ok(&TapElementResult {
                    tapped: true,
                    reason: None,
                })
            }
            Ok(ActionOutcome::Refused(reason)) => ok(&TapElementResult {
                tapped: false,
                reason: Some(reason),
            }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "input_text",
        description = "Focus the first visible element a strategy finds and type printable ASCII text into it."
    )]
    async fn input_text(&self, Parameters(a): Parameters<InputTextArgs>) -> ToolResult {
        let outcome = {
            let _ui = self.ui.lock().await;
            self.backend
                .input_text(&a.device, &a.strategies, &a.text)
                .await
        };
        Ok(match outcome {
            Ok(ActionOutcome::Done) => ok(&InputTextResult {
                ok: true,
                reason: None,
            }),
            Ok(ActionOutcome::Refused(reason)) => ok(&InputTextResult {
                ok: false,
                reason: Some(reason),
            }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "clear_logs",
        description = "Clear the crash, main and system log buffers."
    )]
    async fn clear_logs(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        let r = self.backend.clear_logs(&a.device).await;
        Ok(done(r, json!({"cleared": true})))
    }

    #[tool(
        name = "get_recent_crashes",
        description = "Java, native and ANR crash records in the device log since the last clear_logs."
    )]
    async fn get_recent_crashes(
        &self,
        Parameters(a): Parameters<GetRecentCrashesArgs>,
    ) -> ToolResult {
        Ok(
            match self
                .backend
                .recent_crashes(&a.device, a.package.as_deref())
                .await
            {
                Ok(crashes) => ok(&RecentCrashes {
                    count: u32::try_from(crashes.len()).unwrap_or(u32::MAX),
                    crashes,
                }),
                Err(e) => fail(e.to_string()),
            },
        )
    }

    #[tool(
        name = "start_capture",
        description = "Start `adb logcat -v threadtime` writing to <session_dir>/logcat.txt."
    )]
    async fn start_capture(&self, Parameters(a): Parameters<StartCaptureArgs>) -> ToolResult {
        let device = match self.backend.device(&a.device) {
            Ok(d) => d,
            Err(e) => return Ok(fail(e.to_string())),
        };
        let started = self.captures.lock().await.start(
            &self.backend.adb,
            &a.session_id,
            &a.session_dir,
            device,
        );
        Ok(match started {
            Ok(status) => ok(&StartCaptureResult { status }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(
        name = "list_captures",
        description = "Every capture and its status; a capture whose logcat died is failed, with the reason."
    )]
    async fn list_captures(&self) -> ToolResult {
        let captures = self.captures.lock().await.list();
        Ok(ok(&CaptureList { captures }))
    }

    #[tool(
        name = "stop_capture",
        description = "Stop a capture (kills its logcat)."
    )]
    async fn stop_capture(&self, Parameters(a): Parameters<StopCaptureArgs>) -> ToolResult {
        let stopped = self.captures.lock().await.stop(&a.session_id).await;
        Ok(ok(&stopped))
    }
}

#[tool_handler(name = "whittle-adb")]
impl ServerHandler for AdbServer {}
