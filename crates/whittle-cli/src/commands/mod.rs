pub mod analyze;
pub mod approve;
pub mod bench;
pub mod doctor;
pub mod export;
pub mod import;
pub mod minimize;
pub mod refusal;
pub mod runs;
pub mod sessions;
pub mod verify;

use whittle_service::client::{Hub, HubError, RoleProblemKind};
use whittle_service::config::Config;

use crate::exit::Exit;

/// Connects every role, saying on stderr what failed and how to fix it.
pub async fn connect(config: &Config) -> Result<Hub, Exit> {
    Hub::connect(config).await.map_err(|e: HubError| {
        report_connect_error(config, &e);
        connect_exit(&e)
    })
}

/// The servers that did not connect, each with its fix, on stderr.
pub fn report_connect_error(config: &Config, e: &HubError) {
    eprintln!("error: {e}");
    for problem in &e.problems {
        eprintln!("  fix: {}", problem.fix(&config.path));
    }
}

/// A server that failed to start is infrastructure, a role that is unassigned or lacks
/// tools is configuration.
pub fn connect_exit(e: &HubError) -> Exit {
    if e.problems
        .iter()
        .any(|p| matches!(p.kind, RoleProblemKind::StartFailed(_)))
    {
        Exit::Infrastructure
    } else {
        Exit::Usage
    }
}
