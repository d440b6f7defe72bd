//! A run refused before its search, as `whittle mcp` answers it: the typed refusal, the
//! servers' fixes, and what the agent does next, naming the tool or argument to use.

use whittle_service::api::Config;
use whittle_service::api::{self, RunRefusal};

use super::failure::ToolFailure;

/// A run that never searched, typed, with what to do next.
pub(crate) fn run_failure(config: &Config, e: &api::RunFailure) -> ToolFailure {
    let refusal = e.refusal();
    let error = match e {
        api::RunFailure::Servers(hub) => servers_error(config, e, hub),
        api::RunFailure::Run(_) => e.to_string(),
    };
    let error = match recovery(&refusal) {
        Some(hint) => format!("{error}: {hint}"),
        None => error,
    };
    ToolFailure::refused(refusal, error)
}

/// Servers that did not start, with the fix of each problem (naming the config file).
pub(crate) fn servers_error(
    config: &Config,
    e: &impl std::fmt::Display,
    hub: &whittle_service::api::HubError,
) -> String {
    let fixes: Vec<String> = hub.problems.iter().map(|p| p.fix(&config.path)).collect();
    format!("{e} (fix: {})", fixes.join("; "))
}

/// What an agent does next about a run refused before its search, naming the tool or
/// argument to use; `None` where the cause and its error say all there is.
pub(crate) fn recovery(refusal: &RunRefusal) -> Option<&'static str> {
    Some(match refusal {
        RunRefusal::NeedsCrash { .. } | RunRefusal::CrashNotFound { .. } => {
            "pass one of `cause.crashes` as `crash` (`analyze` lists the session's crashes)"
        }
        RunRefusal::NoCrash => "call `sessions` to find a session with crashes",
        RunRefusal::SessionNotFound { .. } => "call `sessions` to list them",
        RunRefusal::SessionUnusable { .. } => {
            "call `sessions` to see each session's problem and `analyze` for its plan"
        }
        RunRefusal::NeedsDevice { .. } | RunRefusal::DeviceNotFound { .. } => {
            "pass one of `cause.devices` as `device`"
        }
        RunRefusal::DeviceBusy { .. } => {
            "call `minimize` again later, or with `wait_device_seconds` to wait for the device"
        }
        RunRefusal::NeedsPackage { .. } => "pass the app's package as `package`",
        RunRefusal::EvidenceNotFound { .. } | RunRefusal::ResumeRefused { .. } => {
            "call `past_runs` with the session it minimized: a run that can go on says \
             `resumable: true`; else call `minimize` for a new run"
        }
        _ => return None,
    })
}
