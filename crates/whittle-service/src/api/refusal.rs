//! Why a run did not start, or stopped before its evidence existed, as data every front
//! end can act on: one tagged case per cause, carrying what the user can choose from (the
//! online devices, the session's crashes) so the window offers that choice, the CLI's
//! `--json` prints the typed cause and `whittle mcp` answers with it — instead of a
//! sentence to act on by hand. [`RunRefusal::status`] says whether the run was refused
//! (the request or the session) or failed (the infrastructure).

use serde::Serialize;
use whittle_contract::analyzer::CrashGroup;
use whittle_contract::mobile::Device;
use whittle_contract::Role;
use whittle_core::plan::ActionKind;

use super::count::{CountField, InvalidCount};
use super::reproof::{ReproofProblem, ReproofRefusal};
use crate::client::{HubError, RoleProblem, RoleProblemKind};
use crate::config::ConfigError;
use crate::device_lease::DeviceHolder;
use crate::run::{LockError, ResumeError, RunError};

/// One refusal; front ends switch on `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunRefusal {
    /// A count of the request (budget, pool size, baseline tries) is not an integer >= 1.
    InvalidCount { field: CountField, given: String },
    /// Another value of the request the engine cannot take.
    InvalidArgument { detail: String },
    /// `whittle.json` cannot be read or used (a missing `${VAR}`, a bad field).
    ConfigUnusable {
        file: String,
        /// The field at fault, when one is.
        field: Option<String>,
        detail: String,
    },
    /// A role's server did not start, refused the credentials, or lacks tools.
    ServersUnavailable { problems: Vec<ServerProblem> },
    /// The session cannot be found in the workspace.
    SessionNotFound { detail: String },
    /// The session cannot be read, or its plan cannot be built.
    SessionUnusable { detail: String },
    /// The session recorded no crash.
    NoCrash,
    /// The session has several distinct crashes and the run needs one of them.
    NeedsCrash { crashes: Vec<CrashChoice> },
    /// The crash asked for is not among the session's crashes.
    CrashNotFound {
        crash_id: String,
        crashes: Vec<CrashChoice>,
    },
    /// No online Android device.
    NoDevice,
    /// Several online Android devices and none was named.
    NeedsDevice { devices: Vec<DeviceChoice> },
    /// The device asked for is not online (or is ambiguous across lab hosts).
    DeviceNotFound {
        device: String,
        devices: Vec<DeviceChoice>,
    },
    /// Another run holds the device: a Whittle process on this machine, or another
    /// session of the lab host serving it.
    DeviceBusy {
        device: String,
        holder: DeviceHolder,
    },
    /// The device's lease file cannot be taken (a file-system failure).
    DeviceLockFailed { device: String, detail: String },
    /// A step of the plan needs an optional tool the device's ui server does not list.
    MissingTool {
        step: u32,
        action: ActionKind,
        tool: String,
        server: String,
        /// The configured ui servers that list it.
        servers_with_it: Vec<String>,
    },
    /// The app to replay is not the crashing process, or is not installed.
    NeedsPackage {
        package: Option<String>,
        process: String,
        detail: String,
    },
    /// A device server failed to answer.
    ServerFailed { detail: String },
    /// The user cancelled before the run began.
    Cancelled,
    /// The evidence session to resume cannot be found in the workspace.
    EvidenceNotFound { detail: String },
    /// The run's lock file cannot be taken (a file-system failure).
    EvidenceLockFailed { detail: String },
    /// The interrupted run cannot go on (changed, finished, held, unreadable).
    ResumeRefused { detail: String },
    /// The run to re-prove cannot be started from (`api::reproof_spec`).
    ReproofRefused {
        problem: ReproofProblem,
        detail: String,
    },
}

/// Whether the request (or what it names) was refused, or the infrastructure failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RefusalStatus {
    Refused,
    Failed,
}

/// One role that cannot be served, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ServerProblem {
    pub role: Role,
    /// The configured server the role points at, when it names one.
    pub server: Option<String>,
    pub problem: ServerProblemKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ServerProblemKind {
    Unassigned,
    UnknownServer,
    StartFailed {
        detail: String,
    },
    /// The server refused the credentials in the config's `headers`.
    Unauthorized {
        detail: String,
    },
    MissingTools {
        tools: Vec<String>,
    },
}

/// A device the user can pick to run on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeviceChoice {
    pub id: String,
    /// The model as the server names it; may be empty.
    pub name: String,
}

/// One distinct crash (a group of crash ids with one signature) the user can pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrashChoice {
    /// The session's crash ids in this group; the first is the one to run.
    pub crash_ids: Vec<String>,
    pub label: String,
}

impl RunRefusal {
    pub fn of(error: &RunError) -> RunRefusal {
        let detail = || error.to_string();
        match error {
            RunError::InvalidArgument(_) => RunRefusal::InvalidArgument { detail: detail() },
            RunError::Resolve(_) => RunRefusal::SessionNotFound { detail: detail() },
            RunError::Session(_) | RunError::Plan(_) => {
                RunRefusal::SessionUnusable { detail: detail() }
            }
            RunError::NoCrash { .. } => RunRefusal::NoCrash,
            RunError::NeedCrashChoice { groups, .. } => RunRefusal::NeedsCrash {
                crashes: crash_choices(groups),
            },
            RunError::UnknownCrash {
                crash_id, groups, ..
            } => RunRefusal::CrashNotFound {
                crash_id: crash_id.clone(),
                crashes: crash_choices(groups),
            },
            RunError::NoDevice => RunRefusal::NoDevice,
            RunError::NeedDeviceChoice { devices } => RunRefusal::NeedsDevice {
                devices: device_choices(devices),
            },
            RunError::DeviceNotFound { device, devices } => RunRefusal::DeviceNotFound {
                device: device.clone(),
                devices: device_choices(devices),
            },
            RunError::NeedPackageConfirmation {
                package,
                process,
                reason,
            } => RunRefusal::NeedsPackage {
                package: package.clone(),
                process: process.clone(),
                detail: reason.clone(),
            },
            RunError::DeviceBusy { device, holder } => RunRefusal::DeviceBusy {
                device: device.clone(),
                holder: holder.clone(),
            },
            RunError::DeviceLock(lease) => RunRefusal::DeviceLockFailed {
                device: lease.device().to_owned(),
                detail: detail(),
            },
            RunError::MissingTool {
                step,
                action,
                tool,
                server,
                servers_with_it,
            } => RunRefusal::MissingTool {
                step: *step,
                action: *action,
                tool: tool.clone(),
                server: server.clone(),
                servers_with_it: servers_with_it.clone(),
            },
            RunError::ProcessNotPackage { .. } => RunRefusal::InvalidArgument { detail: detail() },
            RunError::Mcp(_) => RunRefusal::ServerFailed { detail: detail() },
            RunError::Cancelled => RunRefusal::Cancelled,
            RunError::Resume(ResumeError::Resolve(_)) => {
                RunRefusal::EvidenceNotFound { detail: detail() }
            }
            RunError::Resume(ResumeError::Lock(LockError::Io { .. })) => {
                RunRefusal::EvidenceLockFailed { detail: detail() }
            }
            RunError::Resume(_) => RunRefusal::ResumeRefused { detail: detail() },
        }
    }

    pub fn of_count(error: &InvalidCount) -> RunRefusal {
        RunRefusal::InvalidCount {
            field: error.field,
            given: error.given.clone(),
        }
    }

    pub fn of_config(error: &ConfigError) -> RunRefusal {
        let (file, field) = match error {
            ConfigError::Read { file, .. } | ConfigError::Syntax { file, .. } => (file, None),
            ConfigError::Field { file, field, .. } => (file, Some(field.clone())),
        };
        RunRefusal::ConfigUnusable {
            file: file.display().to_string(),
            field,
            detail: error.to_string(),
        }
    }

    /// The run to re-prove cannot be started from.
    pub fn of_reproof(error: &ReproofRefusal) -> RunRefusal {
        RunRefusal::ReproofRefused {
            problem: error.problem(),
            detail: error.to_string(),
        }
    }

    pub fn of_servers(error: &HubError) -> RunRefusal {
        RunRefusal::ServersUnavailable {
            problems: error.problems.iter().map(server_problem).collect(),
        }
    }

    /// The refusal's stable code: its `kind` in JSON, what a front end switches on and
    /// a catalogue words (never read back from the JSON).
    pub fn code(&self) -> &'static str {
        match self {
            RunRefusal::InvalidCount { .. } => "invalid_count",
            RunRefusal::InvalidArgument { .. } => "invalid_argument",
            RunRefusal::ConfigUnusable { .. } => "config_unusable",
            RunRefusal::ServersUnavailable { .. } => "servers_unavailable",
            RunRefusal::SessionNotFound { .. } => "session_not_found",
            RunRefusal::SessionUnusable { .. } => "session_unusable",
            RunRefusal::NoCrash => "no_crash",
            RunRefusal::NeedsCrash { .. } => "needs_crash",
            RunRefusal::CrashNotFound { .. } => "crash_not_found",
            RunRefusal::NoDevice => "no_device",
            RunRefusal::NeedsDevice { .. } => "needs_device",
            RunRefusal::DeviceNotFound { .. } => "device_not_found",
            RunRefusal::DeviceBusy { .. } => "device_busy",
            RunRefusal::DeviceLockFailed { .. } => "device_lock_failed",
            RunRefusal::MissingTool { .. } => "missing_tool",
            RunRefusal::NeedsPackage { .. } => "needs_package",
            RunRefusal::ServerFailed { .. } => "server_failed",
            RunRefusal::Cancelled => "cancelled",
            RunRefusal::EvidenceNotFound { .. } => "evidence_not_found",
            RunRefusal::EvidenceLockFailed { .. } => "evidence_lock_failed",
            RunRefusal::ResumeRefused { .. } => "resume_refused",
            RunRefusal::ReproofRefused { .. } => "reproof_refused",
        }
    }

    /// Refused, or failed: the infrastructure (a device, a server, the file system, a
    /// cancel) rather than the request stopped it.
    pub fn status(&self) -> RefusalStatus {
        let failed = match self {
            RunRefusal::ServersUnavailable { problems } => problems
                .iter()
                .any(|p| matches!(p.problem, ServerProblemKind::StartFailed { .. })),
            RunRefusal::NoDevice
            | RunRefusal::DeviceBusy { .. }
            | RunRefusal::DeviceLockFailed { .. }
            | RunRefusal::ServerFailed { .. }
            | RunRefusal::Cancelled
            | RunRefusal::EvidenceLockFailed { .. } => true,
            _ => false,
        };
        if failed {
            RefusalStatus::Failed
        } else {
            RefusalStatus::Refused
        }
    }
}

fn server_problem(problem: &RoleProblem) -> ServerProblem {
    ServerProblem {
        role: problem.role,
        server: problem.server.clone(),
        problem: match &problem.kind {
            RoleProblemKind::Unassigned => ServerProblemKind::Unassigned,
            RoleProblemKind::UnknownServer => ServerProblemKind::UnknownServer,
            RoleProblemKind::StartFailed(detail) => ServerProblemKind::StartFailed {
                detail: detail.clone(),
            },
            RoleProblemKind::Unauthorized(detail) => ServerProblemKind::Unauthorized {
                detail: detail.clone(),
            },
            RoleProblemKind::MissingTools(tools) => ServerProblemKind::MissingTools {
                tools: tools.clone(),
            },
        },
    }
}

fn device_choices(devices: &[Device]) -> Vec<DeviceChoice> {
    devices
        .iter()
        .map(|d| DeviceChoice {
            id: d.id.clone(),
            name: d.name.clone(),
        })
        .collect()
}

fn crash_choices(groups: &[CrashGroup]) -> Vec<CrashChoice> {
    groups
        .iter()
        .filter(|g| !g.crash_ids.is_empty())
        .map(|g| CrashChoice {
            crash_ids: g.crash_ids.clone(),
            label: g.label.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(ids: &[&str], label: &str) -> CrashGroup {
        serde_json::from_value(serde_json::json!({
            "fingerprint": null, "label": label, "kind": "java", "process": "com.example.shop",
            "crash_ids": ids, "step_index": 3, "repro_path": [1, 2, 3]
        }))
        .unwrap()
    }

    fn device(id: &str) -> Device {
        serde_json::from_value(
            serde_json::json!({ "id": id, "name": "Pixel", "platform": "android" }),
        )
        .unwrap()
    }

    #[test]
    fn a_crash_choice_lists_the_session_crashes() {
        let groups = vec![
            group(&["c1", "c3"], "NullPointerException in Checkout"),
            group(&[], "no ids: nothing to run"),
            group(&["c2"], "ANR in Cart"),
        ];
        let refusal = RunRefusal::of(&RunError::UnknownCrash {
            session: "s".into(),
            crash_id: "c9".into(),
            groups: groups.clone(),
        });
        let crashes = vec![
            CrashChoice {
                crash_ids: vec!["c1".into(), "c3".into()],
                label: "NullPointerException in Checkout".into(),
            },
            CrashChoice {
                crash_ids: vec!["c2".into()],
                label: "ANR in Cart".into(),
            },
        ];
        assert_eq!(
            refusal,
            RunRefusal::CrashNotFound {
                crash_id: "c9".into(),
                crashes: crashes.clone(),
            }
        );
        let needs = RunRefusal::of(&RunError::NeedCrashChoice {
            session: "s".into(),
            groups,
        });
        assert_eq!(needs, RunRefusal::NeedsCrash { crashes });
    }

    #[test]
    fn a_missing_device_lists_the_online_ones() {
        let refusal = RunRefusal::of(&RunError::DeviceNotFound {
            device: "sim-1".into(),
            devices: vec![device("labA/sim-1"), device("labB/sim-1")],
        });
        let json = serde_json::to_value(&refusal).unwrap();
        assert_eq!(json["kind"], "device_not_found");
        assert_eq!(json["device"], "sim-1");
        assert_eq!(json["devices"][1]["id"], "labB/sim-1");
    }

    #[test]
    fn refusals_without_a_choice_keep_their_detail() {
        let bad = RunRefusal::of(&RunError::InvalidArgument(
            "max replays 0 must be >= 1".into(),
        ));
        assert_eq!(
            bad,
            RunRefusal::InvalidArgument {
                detail: "invalid argument: max replays 0 must be >= 1".into()
            }
        );
        let package = RunRefusal::of(&RunError::NeedPackageConfirmation {
            package: Some("com.example.shop".into()),
            process: "com.example.shop:remote".into(),
            reason: "not the crashing process".into(),
        });
        assert_eq!(
            serde_json::to_value(package).unwrap(),
            serde_json::json!({
                "kind": "needs_package",
                "package": "com.example.shop",
                "process": "com.example.shop:remote",
                "detail": "not the crashing process",
            })
        );
        assert_eq!(RunRefusal::of(&RunError::Cancelled), RunRefusal::Cancelled);
    }

    fn hub_error(kind: RoleProblemKind) -> HubError {
        HubError {
            config: "/w/whittle.json".into(),
            problems: vec![RoleProblem {
                role: Role::Mobile,
                server: Some("lab".into()),
                kind,
            }],
        }
    }

    #[test]
    fn a_server_that_did_not_start_failed_and_a_refused_token_was_refused() {
        let down =
            RunRefusal::of_servers(&hub_error(RoleProblemKind::StartFailed("exit 1".into())));
        assert_eq!(down.status(), RefusalStatus::Failed);
        let token = RunRefusal::of_servers(&hub_error(RoleProblemKind::Unauthorized("401".into())));
        assert_eq!(token.status(), RefusalStatus::Refused);
        assert_eq!(
            serde_json::to_value(&token).unwrap(),
            serde_json::json!({
                "kind": "servers_unavailable",
                "problems": [{ "role": "mobile", "server": "lab",
                               "problem": { "kind": "unauthorized", "detail": "401" } }],
            })
        );
    }

    #[test]
    fn the_request_and_the_session_are_refused_the_infrastructure_failed() {
        let refused = [
            RunRefusal::of(&RunError::NoCrash {
                session: "s".into(),
            }),
            RunRefusal::of_count(
                &super::super::count::count_of(CountField::MaxReplays, 0).unwrap_err(),
            ),
            RunRefusal::of_config(&ConfigError::Field {
                file: "/w/whittle.json".into(),
                field: "mcpServers.lab.headers.Authorization".into(),
                message: "${LAB_TOKEN} is not set".into(),
            }),
        ];
        for refusal in &refused {
            assert_eq!(refusal.status(), RefusalStatus::Refused, "{refusal:?}");
        }
        for failed in [RunError::NoDevice, RunError::Cancelled] {
            assert_eq!(RunRefusal::of(&failed).status(), RefusalStatus::Failed);
        }
        assert_eq!(
            serde_json::to_value(&refused[1]).unwrap(),
            serde_json::json!({ "kind": "invalid_count", "field": "max_replays", "given": "0" })
        );
        assert!(matches!(
            &refused[2],
            RunRefusal::ConfigUnusable { field: Some(f), .. } if f == "mcpServers.lab.headers.Authorization"
        ));
    }

    #[test]
    fn every_code_is_the_kind_its_json_carries() {
        let detail = || "d".to_owned();
        let all = [
            RunRefusal::InvalidCount {
                field: CountField::MaxReplays,
                given: "0".into(),
            },
            RunRefusal::InvalidArgument { detail: detail() },
            RunRefusal::ConfigUnusable {
                file: "f".into(),
                field: None,
                detail: detail(),
            },
            RunRefusal::ServersUnavailable { problems: vec![] },
            RunRefusal::SessionNotFound { detail: detail() },
            RunRefusal::SessionUnusable { detail: detail() },
            RunRefusal::NoCrash,
            RunRefusal::NeedsCrash { crashes: vec![] },
            RunRefusal::CrashNotFound {
                crash_id: "c".into(),
                crashes: vec![],
            },
            RunRefusal::NoDevice,
            RunRefusal::NeedsDevice { devices: vec![] },
            RunRefusal::DeviceNotFound {
                device: "x".into(),
                devices: vec![],
            },
            RunRefusal::DeviceBusy {
                device: "x".into(),
                holder: DeviceHolder::Unknown,
            },
            RunRefusal::DeviceLockFailed {
                device: "x".into(),
                detail: detail(),
            },
            RunRefusal::MissingTool {
                step: 1,
                action: ActionKind::LongPress,
                tool: "t".into(),
                server: "s".into(),
                servers_with_it: vec![],
            },
            RunRefusal::NeedsPackage {
                package: None,
                process: "p".into(),
                detail: detail(),
            },
            RunRefusal::ServerFailed { detail: detail() },
            RunRefusal::Cancelled,
            RunRefusal::EvidenceNotFound { detail: detail() },
            RunRefusal::EvidenceLockFailed { detail: detail() },
            RunRefusal::ResumeRefused { detail: detail() },
        ];
        let mut codes: Vec<&str> = all.iter().map(RunRefusal::code).collect();
        for refusal in &all {
            let json = serde_json::to_value(refusal).unwrap();
            assert_eq!(json["kind"], refusal.code(), "{json}");
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "one code per case");
    }
}
