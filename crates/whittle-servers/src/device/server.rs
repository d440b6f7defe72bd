//! The one MCP router of every device server: each mobile, ui and log tool of the
//! contract defined once, over any [`DeviceBackend`]. Names and input schemas come from
//! here, descriptions and the server's name from the backend. Tool names are literals
//! (the macro needs them); `tests/servers/device_tool_list.rs` checks them against the contract
//! constants and that the simulator and adb serve the same list.
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::Serialize;
use serde_json::json;
use tracing::Instrument;
use whittle_contract::log::{
    CaptureList, GetRecentCrashesArgs, RecentCrashes, StartCaptureArgs, StartCaptureResult,
    StopCaptureArgs,
};
use whittle_contract::mobile::{
    AppArgs, AppList, DeviceList, PressButtonArgs, SaveScreenshotArgs, SavedScreenshot,
};
use whittle_contract::ui::{
    Hierarchy, InputTextArgs, TapElementArgs, WaitForElementArgs, WaitForElementResult,
};
use whittle_contract::DeviceArgs;

use super::allowed_folders::AllowedFolders;
use super::backend::{DeviceBackend, Intercepted};
use super::capture::CaptureOwner;
use super::capture_log::check_session_id;
use super::fault::oversized_stack;
use super::lab_session::{not_yours_answer, LabHolds, LabSession};
use super::lease::{Acting, LabLeases, LeaseAnswer};
use crate::tool_result::{fail, ok};

/// The reason a capture fails when its session's lease on the device lapsed and another
/// session took the device: its log would hold that session's run from then on.
const LAPSED_REASON: &str =
    "the device's lease lapsed (no call acted on it for --lease-idle-secs) and another session took it";
/// The header naming a request's MCP session (streamable HTTP).
const SESSION_HEADER: &str = "mcp-session-id";

type ToolResult = Result<CallToolResult, ErrorData>;

/// Why serving a device over stdin/stdout failed; the sim and adb commands prefix it.
#[derive(Debug, thiserror::Error)]
pub enum DeviceServeError {
    /// Boxed: rmcp's error is large, and this one travels up every start-up `Result`.
    #[error(transparent)]
    Handshake(Box<rmcp::service::ServerInitializeError>),
    #[error(transparent)]
    Stopped(#[from] tokio::task::JoinError),
}

pub struct DeviceServer<B: DeviceBackend> {
    backend: Arc<B>,
    /// Built once with the backend's descriptions (the macro's default would rebuild
    /// it on every call).
    tools: Arc<ToolRouter<Self>>,
    /// The host's device leases, when it serves several clients (`--listen`).
    lab: Option<Arc<LabLeases>>,
    /// This MCP session's devices and captures (one server value per session,
    /// `for_session`).
    session: Option<Arc<LabSession<B>>>,
    /// Where the files clients name may be written.
    files: AllowedFolders,
}

impl<B: DeviceBackend> Clone for DeviceServer<B> {
    fn clone(&self) -> Self {
        DeviceServer {
            backend: Arc::clone(&self.backend),
            tools: Arc::clone(&self.tools),
            lab: self.lab.clone(),
            session: self.session.clone(),
            files: self.files.clone(),
        }
    }
}

impl<B: DeviceBackend> DeviceServer<B> {
    pub fn new(backend: B) -> Self {
        let mut tools = Self::tool_router();
        for route in tools.map.values_mut() {
            route.attr.description = B::DESCRIPTIONS.of(&route.attr.name);
        }
        DeviceServer {
            backend: Arc::new(backend),
            tools: Arc::new(tools),
            lab: None,
            session: None,
            files: AllowedFolders::Anywhere,
        }
    }

    /// The same server for a host that several clients reach (`--listen`): each device
    /// lent to one MCP session at a time, the lease lapsing after `lease_idle` without
    /// a call acting on the device (`lease.rs`), captures owned by their session
    /// (`lab_session.rs`), files written only inside `files` (`allowed_folders.rs`).
    pub fn leasing(mut self, lease_idle: Duration, files: AllowedFolders) -> Self {
        self.lab = Some(Arc::new(LabLeases::new(lease_idle)));
        self.files = files;
        self
    }

    /// The server value of one new MCP session: the same devices, its own leases and
    /// captures.
    pub fn for_session(&self) -> Self {
        let mut server = self.clone();
        server.session = self
            .lab
            .as_ref()
            .map(|lab| Arc::new(LabSession::new(lab, Arc::clone(&self.backend))));
        server
    }

    /// What this host's sessions hold, for the session ceiling; `None` unless leasing.
    pub fn holds(&self) -> Option<LabHolds<B>> {
        let lab = self.lab.clone()?;
        Some(LabHolds::new(lab, Arc::clone(&self.backend)))
    }

    /// The owner of the captures this session starts (`None` over stdio).
    fn owner(&self) -> Option<CaptureOwner> {
        self.session.as_ref().map(|s| s.number())
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// Serves on stdin/stdout until the client goes away.
    pub async fn serve_stdio(self) -> Result<(), DeviceServeError> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| DeviceServeError::Handshake(Box::new(e)))?;
        running.waiting().await?;
        Ok(())
    }
}

/// A backend's answer as a tool result; its error as a tool error with its message.
fn answer<T: Serialize, E: std::fmt::Display>(result: Result<T, E>) -> ToolResult {
    match result {
        Ok(value) => answered(value),
        Err(e) => refused(e),
    }
}

fn answered<T: Serialize>(value: T) -> ToolResult {
    Ok(ok(&value))
}

fn refused(error: impl std::fmt::Display) -> ToolResult {
    Ok(fail(error.to_string()))
}

#[tool_router]
impl<B: DeviceBackend> DeviceServer<B> {
    #[tool(name = "mobile_list_available_devices")]
    async fn list_devices(&self) -> ToolResult {
        let devices = self.backend.devices().await;
        answer(devices.map(|devices| DeviceList { devices }))
    }

    #[tool(name = "mobile_list_apps")]
    async fn list_apps(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        let apps = self.backend.apps(&a.device).await;
        answer(apps.map(|apps| AppList { apps }))
    }

    #[tool(name = "mobile_launch_app")]
    async fn launch_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        answer(self.backend.launch(&a.device, &a.package_name).await)
    }

    #[tool(name = "mobile_terminate_app")]
    async fn terminate_app(&self, Parameters(a): Parameters<AppArgs>) -> ToolResult {
        answer(self.backend.terminate(&a.device, &a.package_name).await)
    }

    #[tool(name = "mobile_press_button")]
    async fn press_button(&self, Parameters(a): Parameters<PressButtonArgs>) -> ToolResult {
        answer(self.backend.press_button(&a.device, &a.button).await)
    }

    /// The path is checked before the device is asked, and the file written only once
    /// it answered (a failed screenshot leaves no file).
    #[tool(name = "mobile_save_screenshot")]
    async fn save_screenshot(&self, Parameters(a): Parameters<SaveScreenshotArgs>) -> ToolResult {
        let target = match self.files.screenshot(&a.save_to) {
            Ok(target) => target,
            Err(refused) => return Ok(refused.answer()),
        };
        let shot = match self.backend.screenshot(&a.device).await {
            Ok(shot) => shot,
            Err(e) => return refused(e),
        };
        if let Err(failed) = target.write(&shot.png) {
            return Ok(failed.answer());
        }
        answered(SavedScreenshot {
            path: a.save_to,
            width: shot.width,
            height: shot.height,
        })
    }

    #[tool(name = "get_hierarchy")]
    async fn get_hierarchy(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        let elements = self.backend.hierarchy(&a.device).await;
        answer(elements.map(|elements| Hierarchy { elements }))
    }

    /// "Not found" needs at least one good look; if every look failed it is a device
    /// error, which a client must not read as a plain negative. An error that looking
    /// again cannot cure (an unknown device) is answered at once.
    #[tool(name = "wait_for_element")]
    async fn wait_for_element(&self, Parameters(a): Parameters<WaitForElementArgs>) -> ToolResult {
        let deadline = Instant::now() + Duration::from_millis(u64::from(a.timeout_ms));
        let found = |found| answered(WaitForElementResult { found });
        let (mut looked, mut last_error) = (false, None);
        loop {
            match self.backend.element_present(&a.device, &a.strategies).await {
                Ok(true) => return found(true),
                Ok(false) => looked = true,
                Err(e) if B::is_final(&e) => return refused(e),
                Err(e) => last_error = Some(e),
            }
            if Instant::now() >= deadline {
                return match (looked, last_error) {
                    (false, Some(e)) => refused(e),
                    _ => found(false),
                };
            }
            let left = deadline.saturating_duration_since(Instant::now());
            tokio::time::sleep(B::WAIT_POLL.min(left)).await;
        }
    }

    #[tool(name = "tap_element")]
    async fn tap_element(&self, Parameters(a): Parameters<TapElementArgs>) -> ToolResult {
        answer(
            self.backend
                .tap(&a.device, &a.strategies, a.settle_ms)
                .await,
        )
    }

    #[tool(name = "long_press_element")]
    async fn long_press_element(&self, Parameters(a): Parameters<TapElementArgs>) -> ToolResult {
        answer(
            self.backend
                .long_press(&a.device, &a.strategies, a.settle_ms)
                .await,
        )
    }

    #[tool(name = "input_text")]
    async fn input_text(&self, Parameters(a): Parameters<InputTextArgs>) -> ToolResult {
        answer(
            self.backend
                .input_text(&a.device, &a.strategies, &a.text)
                .await,
        )
    }

    #[tool(name = "clear_logs")]
    async fn clear_logs(&self, Parameters(a): Parameters<DeviceArgs>) -> ToolResult {
        let cleared = self.backend.clear_logs(&a.device).await;
        answer(cleared.map(|()| json!({"cleared": true})))
    }

    #[tool(name = "get_recent_crashes")]
    async fn get_recent_crashes(
        &self,
        Parameters(a): Parameters<GetRecentCrashesArgs>,
    ) -> ToolResult {
        let crashes = self.backend.recent_crashes(&a.device, a.package.as_deref());
        answer(crashes.await.map(|crashes| RecentCrashes {
            count: u32::try_from(crashes.len()).unwrap_or(u32::MAX),
            crashes,
        }))
    }

    #[tool(name = "start_capture")]
    async fn start_capture(&self, Parameters(a): Parameters<StartCaptureArgs>) -> ToolResult {
        if let Err(e) = check_session_id(&a.session_id) {
            return refused(e);
        }
        let log = match self.files.capture_log(&a.session_dir) {
            Ok(log) => log,
            Err(refused) => return Ok(refused.answer()),
        };
        let started = self
            .backend
            .start_capture(&a.session_id, log, &a.device, self.owner());
        answer(started.await.map(|status| StartCaptureResult { status }))
    }

    /// A lab host lists a session's own captures only.
    #[tool(name = "list_captures")]
    async fn list_captures(&self) -> ToolResult {
        let captures = self.backend.captures().lock().list(self.owner());
        answered(CaptureList { captures })
    }

    /// Another session's capture is refused with a `capture_not_yours` record.
    #[tool(name = "stop_capture")]
    async fn stop_capture(&self, Parameters(a): Parameters<StopCaptureArgs>) -> ToolResult {
        match self
            .backend
            .captures()
            .stop(&a.session_id, self.owner())
            .await
        {
            Ok(stopped) => answered(stopped),
            Err(not_yours) => Ok(not_yours_answer(&a.session_id, &not_yours)),
        }
    }
}

/// What the lease check decided for one call.
enum Leased {
    /// Go on; the device (if the call acts on one) stays leased while this is held.
    Go(Option<Acting>),
    Busy(CallToolResult),
}

impl<B: DeviceBackend> DeviceServer<B> {
    /// Whether this call may go on (`lease.rs`): a call naming a device another session
    /// holds is answered `device_busy`; a call acting on a device takes or renews its
    /// lease, and a lapsed lease it takes over fails the lapsed holder's captures of it.
    /// A device id the backend refuses takes no lease: the tool answers the error.
    fn lease_for(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Leased {
        let Some(session) = &self.session else {
            return Leased::Go(None);
        };
        if let Some(id) = mcp_session_id(context) {
            session.leases().know_mcp_id(id);
        }
        let device = request
            .arguments
            .as_ref()
            .and_then(|args| args.get("device"))
            .and_then(|device| device.as_str());
        let Some(device) = device.filter(|d| self.backend.check_device(d).is_ok()) else {
            return Leased::Go(None);
        };
        let client = context.peer.peer_info();
        let client = client.as_ref().map_or("", |i| i.client_info.name.as_str());
        match session.leases().admit(&request.name, device, client) {
            LeaseAnswer::Busy(answer) => Leased::Busy(answer),
            LeaseAnswer::Admitted { acting, took_from } => {
                if let Some(lapsed) = took_from {
                    let mut captures = self.backend.captures().lock();
                    captures.fail_owned_on(lapsed, device, LAPSED_REASON);
                }
                Leased::Go(acting)
            }
        }
    }
}

/// The MCP session id the call came with (streamable HTTP puts the request's head in
/// its extensions); `None` over stdio.
fn mcp_session_id(context: &RequestContext<RoleServer>) -> Option<&str> {
    context
        .extensions
        .get::<hyper::http::request::Parts>()?
        .headers
        .get(SESSION_HEADER)?
        .to_str()
        .ok()
}

#[tool_handler(router = self.tools)]
impl<B: DeviceBackend> ServerHandler for DeviceServer<B> {
    /// The backend may answer a tool itself (an injected fault) before the router runs.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The tool's name only: arguments may hold typed text.
        let span =
            tracing::debug_span!("device_tool", server = B::SERVER_NAME, tool = %request.name);
        async move {
            // Held until the call ends: its device's lease does not lapse meanwhile.
            let _acting = match self.lease_for(&request, &context) {
                Leased::Busy(busy) => return Ok(busy.into()),
                Leased::Go(acting) => acting,
            };
            if self.tools.has_route(&request.name) {
                match self.backend.intercept(&request.name).await {
                    Some(Intercepted::Garbage) => {
                        let text = ContentBlock::text("Done! The device did the thing.");
                        return Ok(CallToolResult::success(vec![text]).into());
                    }
                    Some(Intercepted::Oversize) => {
                        let text = ContentBlock::text(oversized_stack());
                        return Ok(CallToolResult::success(vec![text]).into());
                    }
                    None => {}
                }
            }
            let context = ToolCallContext::new(self, request, context);
            self.tools.call(context).await
        }
        .instrument(span)
        .await
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            B::SERVER_NAME,
            env!("CARGO_PKG_VERSION"),
        ))
    }
}
