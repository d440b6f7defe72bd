use whittle_contract::analyzer::CrashGroup;
use whittle_contract::mobile::Device;
use whittle_core::plan::{ActionKind, PlanError};
use whittle_core::session::{ResolveError, SessionError};

use crate::client::McpError;
use crate::device_lease::{DeviceHolder, LeaseError};

/// Why a run stopped before its evidence session existed (Phase 0/1 refusals and
/// failures). Once the capture has started, every ending is a `RunOutcome` instead,
/// so the evidence is always finalized.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("session: {0}")]
    Resolve(#[from] ResolveError),
    #[error("session: {0}")]
    Session(#[from] SessionError),
    #[error("session {session} has no crash to minimize")]
    NoCrash { session: String },
    #[error("session {session} has {} distinct crashes; choose one with --crash ({})", groups.len(), group_list(groups))]
    NeedCrashChoice {
        session: String,
        groups: Vec<CrashGroup>,
    },
    #[error(
        "crash {crash_id} is not in session {session} (crashes: {})",
        group_list(groups)
    )]
    UnknownCrash {
        session: String,
        crash_id: String,
        groups: Vec<CrashGroup>,
    },
    #[error("no online Android device is available; connect one or start the simulator")]
    NoDevice,
    #[error(
        "several Android devices are online ({}); choose one with --device",
        device_list(devices)
    )]
    NeedDeviceChoice { devices: Vec<Device> },
    #[error(
        "device {device} is not an online Android device (available: {})",
        device_list(devices)
    )]
    DeviceNotFound {
        device: String,
        devices: Vec<Device>,
    },
    /// Another run holds the device (a Whittle process here, or another session of the
    /// lab host serving it).
    #[error("device {device} is in use by {holder}; choose another with --device, or wait for it with --wait-device <duration>")]
    DeviceBusy {
        device: String,
        holder: DeviceHolder,
    },
    /// The device's lease file cannot be taken (a file-system failure, or a lease folder
    /// or file refused as unsafe).
    #[error("{0}")]
    DeviceLock(LeaseError),
    /// A step of the plan needs an optional tool the device's ui server does not list.
    #[error(
        "step {step} ({}) needs the ui tool {tool}, which server \"{server}\" does not list ({})",
        .action.as_str(),
        servers_with(.servers_with_it)
    )]
    MissingTool {
        step: u32,
        action: ActionKind,
        tool: String,
        server: String,
        /// The configured ui servers that list it.
        servers_with_it: Vec<String>,
    },
    /// `--package` named one of an app's processes (`com.acme.notes:sync`), not the app.
    #[error("{process} is a process of {package}, not an app: pass --package {package}")]
    ProcessNotPackage { process: String, package: String },
    #[error("package needs confirmation: {reason}")]
    NeedPackageConfirmation {
        package: Option<String>,
        process: String,
        reason: String,
    },
    #[error("replay plan: {0}")]
    Plan(#[from] PlanError),
    #[error("{0}")]
    Mcp(#[from] McpError),
    #[error("cancelled by user")]
    Cancelled,
    /// `--resume` refused; the evidence session is as it was.
    #[error(transparent)]
    Resume(#[from] super::ResumeError),
}

impl From<LeaseError> for RunError {
    fn from(error: LeaseError) -> RunError {
        match error {
            LeaseError::Busy { device, holder } => RunError::DeviceBusy { device, holder },
            unusable => RunError::DeviceLock(unusable),
        }
    }
}

fn servers_with(servers: &[String]) -> String {
    match servers {
        [] => "no configured ui server lists it".into(),
        _ => format!("listed by {}", servers.join(", ")),
    }
}

fn group_list(groups: &[CrashGroup]) -> String {
    groups
        .iter()
        .map(|g| format!("{}: {}", g.crash_ids.join("/"), g.label))
        .collect::<Vec<_>>()
        .join("; ")
}

fn device_list(devices: &[Device]) -> String {
    if devices.is_empty() {
        return "none".into();
    }
    devices
        .iter()
        .map(|d| d.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
