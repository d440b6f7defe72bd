//! adb as a device backend: the operations of `backend` and `ui_actions` with the
//! answers of the tool contract, dumps and element actions one at a time per server
//! (uiautomator writes one dump file per device), and captures fed by `adb logcat`.
use std::time::Duration;

use whittle_contract::log::{CaptureState, LogCrash};
use whittle_contract::mobile::{App, Device};
use whittle_contract::ui::{InputTextResult, Strategy, TapElementResult, UiElement};

use super::backend::Backend;
use super::capture::LogcatChild;
use super::error::AdbError;
use super::hierarchy::find;
use super::ui_actions::ActionOutcome;
use crate::device::capture::{CaptureOwner, SharedCaptures};
use crate::device::capture_log::OpenedLog;
use crate::device::{
    ButtonAnswer, CaptureStartError, DeviceBackend, Launched, Screenshot, Terminated,
    ToolDescriptions,
};

/// `Some(reason)` for an expected negative.
fn refusal(outcome: ActionOutcome) -> Option<String> {
    match outcome {
        ActionOutcome::Done => None,
        ActionOutcome::Refused(reason) => Some(reason),
    }
}

/// A tap (or, with `long`, a long press) on the element found, under the UI lock, then
/// the settle a found element asks for.
async fn pressed(
    backend: &Backend,
    device: &str,
    strategies: &[Strategy],
    settle_ms: u32,
    long: bool,
) -> Result<TapElementResult, AdbError> {
    let outcome = {
        let _ui = backend.ui.lock().await;
        backend.press_first(device, strategies, long).await?
    };
    let reason = refusal(outcome);
    if reason.is_none() && settle_ms > 0 {
        tokio::time::sleep(Duration::from_millis(u64::from(settle_ms))).await;
    }
    Ok(TapElementResult {
        tapped: reason.is_none(),
        reason,
    })
}

impl DeviceBackend for Backend {
    type Error = AdbError;
    type Feed = LogcatChild;

    const SERVER_NAME: &'static str = "whittle-adb";
    const DESCRIPTIONS: ToolDescriptions = ToolDescriptions {
        list_devices: "List the Android devices adb sees (adb devices -l).",
        list_apps: "List the packages installed on a device, with the system flag and, for other apps, their version.",
        launch_app: "Launch an app through its launcher activity (monkey).",
        terminate_app: "Force-stop an app (am force-stop).",
        press_button: "Press a device button: BACK, HOME, ENTER, VOLUME_UP, VOLUME_DOWN, DPAD_*.",
        save_screenshot: "Save a PNG screenshot (screencap) to an absolute path.",
        get_hierarchy: "The UI elements of the current screen (uiautomator dump).",
        wait_for_element: "Wait until an element is on screen.",
        tap_element: "Tap the visible element a strategy finds (text compared with whitespace collapsed, ids with or without the package; Maestro selectors as Maestro matches them), through its nearest clickable ancestor.",
        long_press_element: "Long-press the element tap_element would tap (input swipe in place, 800 ms).",
        input_text: "Focus the first visible element a strategy finds (the focused field as it is) and type printable ASCII text into it.",
        clear_logs: "Clear the crash, main and system log buffers.",
        get_recent_crashes: "Java, native and ANR crash records in the device log since the last clear_logs.",
        start_capture: "Start `adb logcat -v threadtime` writing to <session_dir>/logcat.txt.",
        list_captures: "Every capture and its status; a capture whose logcat died is failed, with the reason.",
        stop_capture: "Stop a capture (kills its logcat).",
    };
    /// A dump takes about a second on a real device; polling faster only queues dumps.
    const WAIT_POLL: Duration = Duration::from_millis(500);

    /// A serial that is malformed or not served here stays so; a dump may work next time.
    fn is_final(error: &AdbError) -> bool {
        matches!(error, AdbError::BadDevice(_) | AdbError::OtherDevice { .. })
    }

    fn check_device(&self, device: &str) -> Result<(), AdbError> {
        self.device(device).map(drop)
    }

    async fn devices(&self) -> Result<Vec<Device>, AdbError> {
        self.list_devices().await
    }

    async fn apps(&self, device: &str) -> Result<Vec<App>, AdbError> {
        self.list_apps(device).await
    }

    async fn launch(&self, device: &str, package: &str) -> Result<Launched, AdbError> {
        self.launch_app(device, package).await?;
        Ok(Launched::done())
    }

    async fn terminate(&self, device: &str, package: &str) -> Result<Terminated, AdbError> {
        self.force_stop(device, package).await?;
        Ok(Terminated {
            terminated: true,
            was_running: None,
        })
    }

    async fn press_button(&self, device: &str, button: &str) -> Result<ButtonAnswer, AdbError> {
        self.key_event(device, button).await?;
        Ok(ButtonAnswer::Pressed { pressed: true })
    }

    async fn screenshot(&self, device: &str) -> Result<Screenshot, AdbError> {
        self.screencap(device).await
    }

    async fn hierarchy(&self, device: &str) -> Result<Vec<UiElement>, AdbError> {
        let _ui = self.ui.lock().await;
        self.dump_elements(device).await
    }

    async fn element_present(
        &self,
        device: &str,
        strategies: &[Strategy],
    ) -> Result<bool, AdbError> {
        let elements = self.hierarchy(device).await?;
        Ok(find(&elements, strategies).is_some())
    }

    async fn tap(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, AdbError> {
        pressed(self, device, strategies, settle_ms, false).await
    }

    async fn long_press(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, AdbError> {
        pressed(self, device, strategies, settle_ms, true).await
    }

    async fn input_text(
        &self,
        device: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> Result<InputTextResult, AdbError> {
        let _ui = self.ui.lock().await;
        let reason = refusal(self.type_into(device, strategies, text).await?);
        Ok(InputTextResult {
            ok: reason.is_none(),
            reason,
        })
    }

    async fn clear_logs(&self, device: &str) -> Result<(), AdbError> {
        self.clear_buffers(device).await
    }

    async fn recent_crashes(
        &self,
        device: &str,
        package: Option<&str>,
    ) -> Result<Vec<LogCrash>, AdbError> {
        self.read_crashes(device, package).await
    }

    async fn start_capture(
        &self,
        session_id: &str,
        log: OpenedLog,
        device: &str,
        owner: Option<CaptureOwner>,
    ) -> Result<CaptureState, CaptureStartError<AdbError>> {
        let serial = self.device(device).map_err(CaptureStartError::Device)?;
        self.captures
            .lock()
            .start(session_id, log, serial, owner, |_, file| {
                LogcatChild::spawn(&self.adb, serial, file).map_err(CaptureStartError::Device)
            })
    }

    fn captures(&self) -> &SharedCaptures<LogcatChild> {
        &self.captures
    }
}
