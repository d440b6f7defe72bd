//! The MCP face of the simulator: the mobile, ui and log tools of docs/design.md §2 over one
//! server. Tool names are literals (the macro needs them); a test checks them against
//! the contract constants.
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde_json::json;
use whittle_core::contract::log::{
    CaptureList, GetRecentCrashesArgs, RecentCrashes, StartCaptureArgs, StartCaptureResult,
    StopCaptureArgs,
};
use whittle_core::contract::mobile::{
    App, AppArgs, AppList, Device, DeviceList, PressButtonArgs, SaveScreenshotArgs, SavedScreenshot,
};
use whittle_core::contract::ui::{InputTextArgs, TapElementArgs, WaitForElementArgs};
use whittle_core::contract::DeviceArgs;

use super::capture::logcat_line;
use super::fault::Faults;
use super::model::Timing;
use super::render;
use super::view::current_elements;
use super::world::{ActionError, DelayedCrash, Outcome, World};
use crate::tool_result::{fail, ok};

/// How often `wait_for_element` looks again; the simulated UI changes only on actions
/// and delayed crashes, so this only bounds the latency of noticing the latter.
const WAIT_POLL: Duration = Duration::from_millis(25);

type ToolResult = Result<CallToolResult, ErrorData>;

/// The log tag of the simulator's own lines in a capture.
pub const SEED_TAG: &str = "WhittleSim";

#[derive(Clone)]
pub struct SimServer {
    world: Arc<Mutex<World>>,
    faults: Arc<Faults>,
    timing: Timing,
}

impl SimServer {
    pub fn new(world: World, faults: Faults) -> SimServer {
        let timing = world.model.timing.clone();
        SimServer {
            world: Arc::new(Mutex::new(world)),
            faults: Arc::new(faults),
            timing,
        }
    }

    /// The seed of the flaky-crash draws.
    pub fn seed(&self) -> u64 {
        self.world().seed()
    }

    /// A panicking holder cannot leave the world half-updated in a way that matters
    /// more than answering, so a poisoned lock is used as is.
    fn world(&self) -> MutexGuard<'_, World> {
        self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Applies the `hang` and `garbage` faults for `tool`.
    async fn fault(&self, tool: &str) -> Option<CallToolResult> {
        if self.faults.hangs(tool) {
            tracing::warn!(tool, "fault: hanging");
            std::future::pending::<()>().await;
        }
        if self.faults.garbles(tool) {
            tracing::warn!(tool, "fault: answering garbage");
            return Some(CallToolResult::success(vec![ContentBlock::text(
                "Done! The device did the thing.",
            )]));
        }
        None
    }

    fn device(&self, id: &str) -> Result<usize, CallToolResult> {
        self.world()
            .device_index(id)
            .map_err(|e| fail(e.to_string()))
    }

    fn finish(&self, outcome: Result<Outcome, ActionError>) -> CallToolResult {
        match outcome {
            Ok(o) => {
                self.schedule(o.delayed);
                CallToolResult::structured(o.result)
            }
            Err(e) => fail(e.to_string()),
        }
    }

    fn schedule(&self, delayed: Vec<DelayedCrash>) {
        for crash in delayed {
            let world = Arc::clone(&self.world);
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(crash.delay_ms)).await;
                world
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .deliver_delayed(&crash);
            });
        }
    }

    async fn pause(ms: u64) {
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }
}

#[tool_router]
impl SimServer {
    #[tool(
        name = "mobile_list_available_devices",
        description = "List the simulated Android devices."
    )]
    async fn list_devices(&self) -> ToolResult {
        if let Some(r) = self.fault("mobile_list_available_devices").await {
            return Ok(r);
        }
        let world = self.world();
        // A pulled cable (fault `device-gone-after-launches`): adb lists nothing.
        let listed = if world.unplugged {
            &[][..]
        } else {
            &world.devices[..]
        };
        let devices = listed
            .iter()
            .map(|d| Device {
                id: d.id.clone(),
                name: format!("Simulated Pixel ({})", d.id),
                platform: "android".into(),
                device_type: "emulator".into(),
                state: "online".into(),
                // A plausible release, so exports of simulated runs read like real ones.
                version: Some("14".into()),
            })
            .collect();
        Ok(ok(&DeviceList { devices }))
    }

    #[tool(
        name = "mobile_list_apps",
        description = "List the apps installed on a device."
    )]
    async fn list_apps(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        if let Some(r) = self.fault("mobile_list_apps").await {
            return Ok(r);
        }
        if let Err(r) = self.device(&a.device) {
            return Ok(r);
        }
        let world = self.world();
        let system = |package: &str| App {
            package: package.into(),
            system: true,
            version_name: None,
            version_code: None,
        };
        let apps = vec![
            App {
                package: world.model.package.clone(),
                system: false,
                version_name: Some(world.model.version.name.clone()),
                version_code: Some(world.model.version.code),
            },
            system("com.android.settings"),
            system("com.google.android.apps.nexuslauncher"),
        ];
        Ok(ok(&AppList { apps }))
    }

    #[tool(
        name = "mobile_launch_app",
        description = "Launch an app (fresh state when it is not running)."
    )]
    async fn launch_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        if let Some(r) = self.fault("mobile_launch_app").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        if self.world().launch_would_exit() {
            tracing::warn!("fault: exiting on launch");
            std::process::exit(3);
        }
        if self.world().unplug_before_launch() {
            tracing::warn!("fault: every device is gone");
            return Ok(fail(
                ActionError::Disconnected(a.device.clone()).to_string(),
            ));
        }
        Self::pause(self.timing.launch_ms).await;
        let outcome = self.world().launch(dev, &a.package_name);
        Ok(self.finish(outcome))
    }

    #[tool(name = "mobile_terminate_app", description = "Force-stop an app.")]
    async fn terminate_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        if let Some(r) = self.fault("mobile_terminate_app").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        let outcome = self.world().terminate(dev, &a.package_name);
        Ok(self.finish(outcome))
    }

    #[tool(
        name = "mobile_press_button",
        description = "Press a device button (the simulator supports BACK)."
    )]
    async fn press_button(&self, Parameters(a): Parameters<PressButtonArgs>) -> ToolResult {
        if let Some(r) = self.fault("mobile_press_button").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        Self::pause(self.timing.action_ms).await;
        let outcome = self.world().press_button(dev, &a.button);
        Ok(self.finish(outcome))
    }

    #[tool(
        name = "mobile_save_screenshot",
        description = "Save a PNG screenshot to an absolute path."
    )]
    async fn save_screenshot(&self, Parameters(a): Parameters<SaveScreenshotArgs>) -> ToolResult {
        if let Some(r) = self.fault("mobile_save_screenshot").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        let path = Path::new(&a.save_to);
        if !path.is_absolute() || !path.parent().is_some_and(Path::is_dir) {
            return Ok(fail(format!(
                "saveTo {:?} must be an absolute path in an existing folder",
                a.save_to
            )));
        }
        let image = {
            let world = self.world();
            let size = world.model.screen_size;
            match &world.devices[dev].app {
                Some(app) => render::app_screen(size, &current_elements(&world.model, app)),
                None => render::launcher(size),
            }
        };
        if let Err(e) = image.save_with_format(path, image::ImageFormat::Png) {
            return Ok(fail(format!(
                "cannot write screenshot {}: {e}",
                path.display()
            )));
        }
        Ok(ok(&SavedScreenshot {
            path: a.save_to,
            width: image.width(),
            height: image.height(),
        }))
    }

    #[tool(
        name = "get_hierarchy",
        description = "The UI elements of the current screen."
    )]
    async fn get_hierarchy(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        if let Some(r) = self.fault("get_hierarchy").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        Ok(ok(&self.world().hierarchy(dev)))
    }

    #[tool(
        name = "wait_for_element",
        description = "Wait until an element is on screen."
    )]
    async fn wait_for_element(&self, Parameters(a): Parameters<WaitForElementArgs>) -> ToolResult {
        if let Some(r) = self.fault("wait_for_element").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        let deadline = Instant::now() + Duration::from_millis(u64::from(a.timeout_ms));
        loop {
            if self.world().element_present(dev, &a.strategies) {
                return Ok(ok(&json!({"found": true})));
            }
            if Instant::now() >= deadline {
                return Ok(ok(&json!({"found": false})));
            }
            tokio::time::sleep(WAIT_POLL).await;
        }
    }

    /// `settle_ms` is accepted for the contract; the simulated UI is settled on return.
    #[tool(
        name = "tap_element",
        description = "Tap the first element a strategy finds on the current screen."
    )]
    async fn tap_element(&self, Parameters(a): Parameters<TapElementArgs>) -> ToolResult {
        if let Some(r) = self.fault("tap_element").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        Self::pause(self.timing.action_ms).await;
        let outcome = self.world().tap(dev, &a.strategies);
        Ok(self.finish(Ok(outcome)))
    }

    #[tool(
        name = "input_text",
        description = "Type text into the first element a strategy finds."
    )]
    async fn input_text(&self, Parameters(a): Parameters<InputTextArgs>) -> ToolResult {
        if let Some(r) = self.fault("input_text").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        Self::pause(self.timing.action_ms).await;
        let outcome = self.world().input_text(dev, &a.strategies, &a.text);
        Ok(self.finish(Ok(outcome)))
    }

    #[tool(
        name = "clear_logs",
        description = "Hide the crash records so far from get_recent_crashes."
    )]
    async fn clear_logs(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        if let Some(r) = self.fault("clear_logs").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        self.world().clear_logs(dev);
        Ok(ok(&json!({"cleared": true})))
    }

    #[tool(
        name = "get_recent_crashes",
        description = "Crash records since the last clear_logs."
    )]
    async fn get_recent_crashes(
        &self,
        Parameters(a): Parameters<GetRecentCrashesArgs>,
    ) -> ToolResult {
        if let Some(r) = self.fault("get_recent_crashes").await {
            return Ok(r);
        }
        let dev = match self.device(&a.device) {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        let crashes = self.world().recent_crashes(dev, a.package.as_deref());
        Ok(ok(&RecentCrashes {
            count: crashes.len() as u32,
            crashes,
        }))
    }

    #[tool(
        name = "start_capture",
        description = "Start writing the device log to <session_dir>/logcat.txt."
    )]
    async fn start_capture(&self, Parameters(a): Parameters<StartCaptureArgs>) -> ToolResult {
        if let Some(r) = self.fault("start_capture").await {
            return Ok(r);
        }
        if let Err(r) = self.device(&a.device) {
            return Ok(r);
        }
        let mut world = self.world();
        // The seed goes into the evidence, so whoever reads a run's log can repeat its
        // flaky-crash draws.
        let header = [logcat_line(
            &chrono::Utc::now(),
            0,
            'I',
            SEED_TAG,
            &format!(
                "flaky-crash seed {seed}; `whittle-servers sim --seed {seed}` repeats this run's draws",
                seed = world.seed()
            ),
        )];
        let started = world
            .captures
            .start(&a.session_id, &a.session_dir, &a.device, &header);
        Ok(match started {
            Ok(status) => ok(&StartCaptureResult { status }),
            Err(e) => fail(e.to_string()),
        })
    }

    #[tool(name = "list_captures", description = "Every capture and its status.")]
    async fn list_captures(&self) -> ToolResult {
        if let Some(r) = self.fault("list_captures").await {
            return Ok(r);
        }
        let captures = self.world().captures.list();
        Ok(ok(&CaptureList { captures }))
    }

    #[tool(name = "stop_capture", description = "Stop a capture.")]
    async fn stop_capture(&self, Parameters(a): Parameters<StopCaptureArgs>) -> ToolResult {
        if let Some(r) = self.fault("stop_capture").await {
            return Ok(r);
        }
        let stopped = self.world().captures.stop(&a.session_id);
        Ok(ok(&stopped))
    }
}

#[tool_handler(name = "whittle-sim")]
impl ServerHandler for SimServer {}
