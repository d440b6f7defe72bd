//! Injected faults as a backend around another (`--fault`, see `fault`), so a client can
//! be tested against a device server that misbehaves without the device knowing:
//! a tool that hangs, answers garbage or answers too much, a server that exits, devices that disappear,
//! captures whose feed dies.
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use whittle_contract::log::{CaptureState, LogCrash};
use whittle_contract::mobile::{App, Device};
use whittle_contract::ui::{InputTextResult, Strategy, TapElementResult, UiElement};

use super::answer::{ButtonAnswer, Launched, Screenshot, Terminated};
use super::backend::{DeviceBackend, Intercepted};
use super::capture::{CaptureOwner, CaptureStartError, SharedCaptures};
use super::capture_log::OpenedLog;
use super::descriptions::ToolDescriptions;
use super::fault::Faults;

/// What a real backend reports when its `adb logcat` child dies.
pub const DIED_REASON: &str = "logcat process exited";
/// What a real backend reports when the device goes away under a capture.
pub const DISCONNECTED_REASON: &str = "device disconnected";

#[derive(Debug, thiserror::Error)]
pub enum FaultError<E> {
    #[error(transparent)]
    Device(E),
    /// adb's own words for a device that went away.
    #[error("device '{0}' not found (it was disconnected)")]
    Disconnected(String),
}

#[derive(Debug, Default)]
struct State {
    /// Launches that started a process, over all devices.
    launches: u64,
    /// Fault `device-gone-after-launches` fired: every device is gone.
    unplugged: bool,
    /// Per capture session: its device and the launches on it since the capture started.
    captures: BTreeMap<String, (String, u32)>,
}

pub struct FaultyBackend<B> {
    inner: B,
    faults: Faults,
    state: Mutex<State>,
}

impl<B: DeviceBackend> FaultyBackend<B> {
    pub fn new(inner: B, faults: Faults) -> Self {
        FaultyBackend {
            inner,
            faults,
            state: Mutex::new(State::default()),
        }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// No await happens under this lock, and a panicking holder leaves only counters.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn plugged(&self, device: &str) -> Result<(), FaultError<B::Error>> {
        if self.state().unplugged {
            return Err(FaultError::Disconnected(device.to_string()));
        }
        Ok(())
    }

    /// Counts a launch that started a process; applies `capture-dies-after`.
    fn count_launch(&self, device: &str) {
        let dying: Vec<String> = {
            let mut state = self.state();
            state.launches += 1;
            let Some(limit) = self.faults.capture_dies_after() else {
                return;
            };
            state
                .captures
                .iter_mut()
                .filter(|(_, (d, _))| d == device)
                .filter_map(|(session, (_, seen))| {
                    *seen += 1;
                    (*seen >= limit).then(|| session.clone())
                })
                .collect()
        };
        let mut captures = self.inner.captures().lock();
        for session in dying {
            captures.fail(Some(&session), DIED_REASON);
        }
    }
}

impl<B: DeviceBackend> DeviceBackend for FaultyBackend<B> {
    type Error = FaultError<B::Error>;
    type Feed = B::Feed;

    const SERVER_NAME: &'static str = B::SERVER_NAME;
    const DESCRIPTIONS: ToolDescriptions = B::DESCRIPTIONS;
    const WAIT_POLL: Duration = B::WAIT_POLL;

    fn is_final(error: &Self::Error) -> bool {
        match error {
            FaultError::Device(e) => B::is_final(e),
            FaultError::Disconnected(_) => true,
        }
    }

    fn check_device(&self, device: &str) -> Result<(), Self::Error> {
        self.plugged(device)?;
        self.inner.check_device(device).map_err(FaultError::Device)
    }

    async fn intercept(&self, tool: &str) -> Option<Intercepted> {
        if self.faults.hangs(tool) {
            tracing::warn!(tool, "fault: hanging");
            std::future::pending::<()>().await;
        }
        if self.faults.garbles(tool) {
            tracing::warn!(tool, "fault: answering garbage");
            return Some(Intercepted::Garbage);
        }
        if self.faults.oversizes(tool) {
            tracing::warn!(tool, "fault: answering over 16 MiB");
            return Some(Intercepted::Oversize);
        }
        self.inner.intercept(tool).await
    }

    async fn devices(&self) -> Result<Vec<Device>, Self::Error> {
        // A pulled cable: adb lists nothing.
        if self.state().unplugged {
            return Ok(Vec::new());
        }
        self.inner.devices().await.map_err(FaultError::Device)
    }

    async fn apps(&self, device: &str) -> Result<Vec<App>, Self::Error> {
        self.plugged(device)?;
        self.inner.apps(device).await.map_err(FaultError::Device)
    }

    async fn launch(&self, device: &str, package: &str) -> Result<Launched, Self::Error> {
        self.check_device(device)?;
        let launches = self.state().launches;
        let due = |limit: Option<u32>| limit.is_some_and(|n| launches >= u64::from(n));
        if due(self.faults.exit_after_launches()) {
            tracing::warn!("fault: exiting on launch");
            std::process::exit(3);
        }
        if due(self.faults.device_gone_after_launches()) {
            tracing::warn!("fault: every device is gone");
            self.state().unplugged = true;
            self.captures().lock().fail(None, DISCONNECTED_REASON);
            return Err(FaultError::Disconnected(device.to_string()));
        }
        let launched = self
            .inner
            .launch(device, package)
            .await
            .map_err(FaultError::Device)?;
        if launched.started() {
            self.count_launch(device);
        }
        Ok(launched)
    }

    async fn terminate(&self, device: &str, package: &str) -> Result<Terminated, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.terminate(device, package).await;
        r.map_err(FaultError::Device)
    }

    async fn press_button(&self, device: &str, button: &str) -> Result<ButtonAnswer, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.press_button(device, button).await;
        r.map_err(FaultError::Device)
    }

    async fn screenshot(&self, device: &str) -> Result<Screenshot, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.screenshot(device).await;
        r.map_err(FaultError::Device)
    }

    async fn hierarchy(&self, device: &str) -> Result<Vec<UiElement>, Self::Error> {
        self.plugged(device)?;
        self.inner
            .hierarchy(device)
            .await
            .map_err(FaultError::Device)
    }

    async fn element_present(
        &self,
        device: &str,
        strategies: &[Strategy],
    ) -> Result<bool, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.element_present(device, strategies).await;
        r.map_err(FaultError::Device)
    }

    async fn tap(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.tap(device, strategies, settle_ms).await;
        r.map_err(FaultError::Device)
    }

    async fn long_press(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> Result<TapElementResult, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.long_press(device, strategies, settle_ms).await;
        r.map_err(FaultError::Device)
    }

    async fn input_text(
        &self,
        device: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> Result<InputTextResult, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.input_text(device, strategies, text).await;
        r.map_err(FaultError::Device)
    }

    async fn clear_logs(&self, device: &str) -> Result<(), Self::Error> {
        self.plugged(device)?;
        self.inner
            .clear_logs(device)
            .await
            .map_err(FaultError::Device)
    }

    async fn recent_crashes(
        &self,
        device: &str,
        package: Option<&str>,
    ) -> Result<Vec<LogCrash>, Self::Error> {
        self.plugged(device)?;
        let r = self.inner.recent_crashes(device, package).await;
        r.map_err(FaultError::Device)
    }

    async fn start_capture(
        &self,
        session_id: &str,
        log: OpenedLog,
        device: &str,
        owner: Option<CaptureOwner>,
    ) -> Result<CaptureState, CaptureStartError<Self::Error>> {
        self.plugged(device).map_err(CaptureStartError::Device)?;
        let started = self
            .inner
            .start_capture(session_id, log, device, owner)
            .await
            .map_err(|e| e.map_device(FaultError::Device))?;
        // A new capture counts launches from zero.
        let entry = (device.to_string(), 0);
        self.state().captures.insert(session_id.to_string(), entry);
        Ok(started)
    }

    fn captures(&self) -> &SharedCaptures<B::Feed> {
        self.inner.captures()
    }
}
