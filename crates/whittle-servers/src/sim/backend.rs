//! The simulator as a device backend: each operation checks the device, waits the
//! model's timing, applies the action to the world and schedules the crashes it delayed.
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use whittle_contract::log::{CaptureState, LogCrash};
use whittle_contract::mobile::{App, Device};
use whittle_contract::ui::{InputTextResult, Strategy, TapElementResult, UiElement};

use super::error::ActionError;
use super::logcat::{logcat_line, SEED_TAG};
use super::model::DeviceTiming;
use super::render;
use super::view::current_elements;
use super::world::{ActionEffect, DelayedCrash, World};
use crate::device::capture::{CaptureOwner, SharedCaptures};
use crate::device::capture_log::{CaptureLogError, OpenedLog};
use crate::device::{
    ButtonAnswer, CaptureStartError, DeviceBackend, Launched, Screenshot, Terminated,
    ToolDescriptions,
};

pub struct SimBackend {
    world: Arc<Mutex<World>>,
    captures: Arc<SharedCaptures<()>>,
    timing: DeviceTiming,
    seed: u64,
}

impl SimBackend {
    pub fn new(world: World, captures: Arc<SharedCaptures<()>>) -> SimBackend {
        SimBackend {
            timing: world.model.timing.clone(),
            seed: world.seed(),
            world: Arc::new(Mutex::new(world)),
            captures,
        }
    }

    /// The seed of the flaky-crash draws.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A panicking holder cannot leave the world half-updated in a way that matters
    /// more than answering, so a poisoned lock is used as is.
    fn world(&self) -> MutexGuard<'_, World> {
        self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn device(&self, id: &str) -> Result<usize, ActionError> {
        self.world().device_index(id)
    }

    /// The action's answer; its delayed crashes hit the device later, if its process
    /// still lives then.
    /// A tap, or with `long` a long press, after the model's action delay.
    async fn press(
        &self,
        device: &str,
        strategies: &[Strategy],
        long: bool,
    ) -> Result<TapElementResult, ActionError> {
        let dev = self.device(device)?;
        pause(self.timing.action_ms).await;
        let outcome = self.world().tap(dev, strategies, long);
        Ok(self.finish(outcome))
    }

    fn finish<T>(&self, outcome: ActionEffect<T>) -> T {
        for crash in outcome.delayed {
            let world = Arc::clone(&self.world);
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(crash.delay_ms)).await;
                deliver(&world, &crash);
            });
        }
        outcome.result
    }
}

fn deliver(world: &Mutex<World>, crash: &DelayedCrash) {
    world
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .deliver_delayed(crash);
}

async fn pause(ms: u64) {
    if ms > 0 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
}

impl DeviceBackend for SimBackend {
    type Error = ActionError;
    type Feed = ();

    const SERVER_NAME: &'static str = "whittle-sim";
    const DESCRIPTIONS: ToolDescriptions = ToolDescriptions {
        list_devices: "List the simulated Android devices.",
        list_apps: "List the apps installed on a device.",
        launch_app: "Launch an app (fresh state when it is not running).",
        terminate_app: "Force-stop an app.",
        press_button: "Press a device button (the simulator supports BACK).",
        save_screenshot: "Save a PNG screenshot to an absolute path.",
        get_hierarchy: "The UI elements of the current screen.",
        wait_for_element: "Wait until an element is on screen.",
        tap_element: "Tap the first element a strategy finds on the current screen.",
        long_press_element: "Long-press the first element a strategy finds on the current screen.",
        input_text: "Type text into the first element a strategy finds.",
        clear_logs: "Hide the crash records so far from get_recent_crashes.",
        get_recent_crashes: "Crash records since the last clear_logs.",
        start_capture: "Start writing the device log to <session_dir>/logcat.txt.",
        list_captures: "Every capture and its status.",
        stop_capture: "Stop a capture.",
    };
    /// The simulated UI changes only on actions and delayed crashes, so this only bounds
    /// the latency of noticing the latter.
    const WAIT_POLL: Duration = Duration::from_millis(25);

    /// Every refusal of the simulator is about the request, not a passing state.
    fn is_final(_: &ActionError) -> bool {
        true
    }

    fn check_device(&self, device: &str) -> Result<(), ActionError> {
        self.device(device).map(drop)
    }

    async fn devices(&self) -> Result<Vec<Device>, ActionError> {
        let world = self.world();
        let device = |id: &str| Device {
            id: id.to_string(),
            name: format!("Simulated Pixel ({id})"),
            platform: "android".into(),
            device_type: "emulator".into(),
            state: "online".into(),
            // A plausible release, so exports of simulated runs read like real ones.
            version: Some("14".into()),
        };
        Ok(world.devices.iter().map(|d| device(&d.id)).collect())
    }

    async fn apps(&self, device: &str) -> Result<Vec<App>, ActionError> {
        self.device(device)?;
        let world = self.world();
        let system = |package: &str| App {
            package: package.into(),
            system: true,
            version_name: None,
            version_code: None,
        };
        Ok(vec![
            App {
                package: world.model.package.clone(),
                system: false,
                version_name: Some(world.model.version.name.clone()),
                version_code: Some(world.model.version.code),
            },
            system("com.android.settings"),
            system("com.google.android.apps.nexuslauncher"),
        ])
    }

    async fn launch(&self, device: &str, package: &str) -> Result<Launched, ActionError> {
        let dev = self.device(device)?;
        pause(self.timing.launch_ms).await;
        let outcome = self.world().launch(dev, package)?;
        Ok(self.finish(outcome))
    }

    async fn terminate(&self, device: &str, package: &str) -> Result<Terminated, ActionError> {
        let dev = self.device(device)?;
        let outcome = self.world().terminate(dev, package)?;
        Ok(self.finish(outcome))
    }

    async fn press_button(&self, device: &str, button: &str) -> Result<ButtonAnswer, ActionError> {
        let dev = self.device(device)?;
        pause(self.timing.action_ms).await;
        let outcome = self.world().press_button(dev, button)?;
        Ok(self.finish(outcome))
    }

    async fn screenshot(&self, device: &str) -> Result<Screenshot, ActionError> {
        let dev = self.device(device)?;
        let image = {
            let world = self.world();
            let size = world.model.screen_size;
            match &world.devices[dev].app {
                Some(app) => render::app_screen(size, &current_elements(&world.model, app)),
                None => render::launcher(size),
            }
        };
        let mut png = std::io::Cursor::new(Vec::new());
        image
            .write_to(&mut png, image::ImageFormat::Png)
            .map_err(ActionError::Screenshot)?;
        Ok(Screenshot {
            png: png.into_inner(),
            width: image.width(),
            height: image.height(),
        })
    }

    async fn hierarchy(&self, device: &str) -> Result<Vec<UiElement>, ActionError> {
        let dev = self.device(device)?;
        Ok(self.world().hierarchy(dev).elements)
    }

    async fn element_present(
        &self,
        device: &str,
        strategies: &[Strategy],
    ) -> Result<bool, ActionError> {
        let dev = self.device(device)?;
        Ok(self.world().element_present(dev, strategies))
    }

    /// `settle_ms` is accepted for the contract; the simulated UI is settled on return.
    async fn tap(
        &self,
        device: &str,
        strategies: &[Strategy],
        _settle_ms: u32,
    ) -> Result<TapElementResult, ActionError> {
        self.press(device, strategies, false).await
    }

    /// As [`SimBackend::tap`]; the press's length is not simulated.
    async fn long_press(
        &self,
        device: &str,
        strategies: &[Strategy],
        _settle_ms: u32,
    ) -> Result<TapElementResult, ActionError> {
        self.press(device, strategies, true).await
    }

    async fn input_text(
        &self,
        device: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> Result<InputTextResult, ActionError> {
        let dev = self.device(device)?;
        pause(self.timing.action_ms).await;
        let outcome = self.world().input_text(dev, strategies, text);
        Ok(self.finish(outcome))
    }

    async fn clear_logs(&self, device: &str) -> Result<(), ActionError> {
        let dev = self.device(device)?;
        self.world().clear_logs(dev);
        Ok(())
    }

    async fn recent_crashes(
        &self,
        device: &str,
        package: Option<&str>,
    ) -> Result<Vec<LogCrash>, ActionError> {
        let dev = self.device(device)?;
        Ok(self.world().recent_crashes(dev, package))
    }

    /// The capture starts with the seed, so whoever reads a run's log can repeat its
    /// flaky-crash draws.
    async fn start_capture(
        &self,
        session_id: &str,
        log: OpenedLog,
        device: &str,
        owner: Option<CaptureOwner>,
    ) -> Result<CaptureState, CaptureStartError<ActionError>> {
        self.device(device).map_err(CaptureStartError::Device)?;
        let header = logcat_line(
            &chrono::Utc::now(),
            0,
            'I',
            SEED_TAG,
            &format!(
                "flaky-crash seed {seed}; `whittle-servers sim --seed {seed}` repeats this run's draws",
                seed = self.seed
            ),
        );
        self.captures
            .lock()
            .start(session_id, log, device, owner, |path, mut file| {
                use std::io::Write;
                writeln!(file, "{header}").map_err(|source| {
                    CaptureStartError::Log(CaptureLogError::Open {
                        path: path.to_path_buf(),
                        source,
                    })
                })
            })
    }

    fn captures(&self) -> &SharedCaptures<()> {
        &self.captures
    }
}
