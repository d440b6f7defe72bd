//! What a device server needs from a device: the operations behind the mobile, ui and
//! log tools, with typed errors. The router (`server`) turns each answer into a tool
//! result and each error into a tool error carrying the error's message.
use std::future::Future;
use std::time::Duration;

use whittle_contract::log::{CaptureState, LogCrash};
use whittle_contract::mobile::{App, Device};
use whittle_contract::ui::{InputTextResult, Strategy, TapElementResult, UiElement};

use super::answer::{ButtonAnswer, Launched, Screenshot, Terminated};
use super::capture::{CaptureFeed, CaptureOwner, CaptureStartError, SharedCaptures};
use super::capture_log::OpenedLog;
use super::descriptions::ToolDescriptions;

/// A tool call answered before it reached the device (an injected fault).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intercepted {
    /// A text block that is not the tool's contract shape.
    Garbage,
    /// A text block over 16 MiB: more than one MCP message may carry.
    Oversize,
}

/// A device server's device. Every method naming a `device` checks it first, so an
/// unknown or refused id is an error whatever the operation.
pub trait DeviceBackend: Send + Sync + 'static {
    type Error: std::error::Error + Send + Sync + 'static;
    /// What writes a capture's log file.
    type Feed: CaptureFeed;

    /// The server's name in the MCP handshake. Whittle's client keeps its HTTP
    /// connections to a server by this name (whittle-service `client/keep_alive.rs`
    /// lists them): rename one there too.
    const SERVER_NAME: &'static str;
    const DESCRIPTIONS: ToolDescriptions;
    /// How often `wait_for_element` looks again.
    const WAIT_POLL: Duration;

    /// Whether `error` will not go away by looking again (`wait_for_element` then gives
    /// up at once instead of at its deadline).
    fn is_final(error: &Self::Error) -> bool;

    /// Checks that `device` names a device this server drives.
    fn check_device(&self, device: &str) -> Result<(), Self::Error>;

    /// A chance to answer `tool` before it runs; a plain device never does.
    fn intercept(&self, _tool: &str) -> impl Future<Output = Option<Intercepted>> + Send {
        std::future::ready(None)
    }

    fn devices(&self) -> impl Future<Output = Result<Vec<Device>, Self::Error>> + Send;

    fn apps(&self, device: &str) -> impl Future<Output = Result<Vec<App>, Self::Error>> + Send;

    fn launch(
        &self,
        device: &str,
        package: &str,
    ) -> impl Future<Output = Result<Launched, Self::Error>> + Send;

    fn terminate(
        &self,
        device: &str,
        package: &str,
    ) -> impl Future<Output = Result<Terminated, Self::Error>> + Send;

    fn press_button(
        &self,
        device: &str,
        button: &str,
    ) -> impl Future<Output = Result<ButtonAnswer, Self::Error>> + Send;

    /// A PNG of the screen; the server writes it where the client asked, if it may
    /// (`allowed_folders`).
    fn screenshot(
        &self,
        device: &str,
    ) -> impl Future<Output = Result<Screenshot, Self::Error>> + Send;

    fn hierarchy(
        &self,
        device: &str,
    ) -> impl Future<Output = Result<Vec<UiElement>, Self::Error>> + Send;

    /// One look: is an element a strategy finds on screen now?
    fn element_present(
        &self,
        device: &str,
        strategies: &[Strategy],
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;

    /// Taps the first element a strategy finds, then lets the UI settle for `settle_ms`
    /// if the backend's UI needs time to.
    fn tap(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> impl Future<Output = Result<TapElementResult, Self::Error>> + Send;

    /// Holds a press on the first element a strategy finds for `ui::LONG_PRESS_MS`, then
    /// lets the UI settle as [`DeviceBackend::tap`] does.
    fn long_press(
        &self,
        device: &str,
        strategies: &[Strategy],
        settle_ms: u32,
    ) -> impl Future<Output = Result<TapElementResult, Self::Error>> + Send;

    /// Types `text` into the first element a strategy finds. The text is never logged
    /// nor echoed in an answer or an error.
    fn input_text(
        &self,
        device: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> impl Future<Output = Result<InputTextResult, Self::Error>> + Send;

    fn clear_logs(&self, device: &str) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Crash records since the last `clear_logs`, of `package`'s processes if given.
    fn recent_crashes(
        &self,
        device: &str,
        package: Option<&str>,
    ) -> impl Future<Output = Result<Vec<LogCrash>, Self::Error>> + Send;

    /// Starts writing `device`'s log to `log` (`<session_dir>/logcat.txt`, opened by the
    /// server), for `owner` (the lab session that asked; `None` over stdio).
    fn start_capture(
        &self,
        session_id: &str,
        log: OpenedLog,
        device: &str,
        owner: Option<CaptureOwner>,
    ) -> impl Future<Output = Result<CaptureState, CaptureStartError<Self::Error>>> + Send;

    /// Every capture this backend started, listed, stopped and failed alike whatever
    /// feeds them.
    fn captures(&self) -> &SharedCaptures<Self::Feed>;
}
