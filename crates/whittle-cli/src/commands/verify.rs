use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_service::api::{self, RunRefusal, VerifyFailure};
use whittle_service::config::Config;
use whittle_service::run::VerifyError;

use crate::exit::Exit;
use crate::signals::CancelOnSignal;

pub async fn run(config: &Config, bundle: &Path, runs: u32, device: Option<&str>) -> Exit {
    let cancel = CancellationToken::new();
    // SIGINT, SIGTERM and SIGHUP stop the replays; the servers are still shut down.
    let signals = CancelOnSignal::token(cancel.clone());
    let verified = api::verify(config, bundle, runs, device, &cancel).await;
    drop(signals);
    let result = match verified {
        Err(VerifyFailure::Servers(e)) => {
            eprintln!("error: {e}");
            for problem in &e.problems {
                eprintln!("  fix: {}", problem.fix(&config.path));
            }
            return Exit::of_refusal(&RunRefusal::of_servers(&e));
        }
        Err(VerifyFailure::Verify(e)) => Err(e),
        Ok(report) => Ok(report),
    };
    match result {
        Ok(report) => {
            println!(
                "reproduced {} of {} replays of {} on {} ({} {})",
                report.reproduced,
                report.runs,
                report.target_fingerprint,
                report.device,
                report.package,
                report.app_version.as_deref().unwrap_or("")
            );
            if report.reproduced == report.runs {
                Exit::Proven
            } else if report.reproduced > 0 {
                Exit::Unproven
            } else {
                Exit::NotReproduced
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                VerifyError::Bundle(_) | VerifyError::NoRuns | VerifyError::Refused(_) => {
                    Exit::Refused
                }
                VerifyError::Run(run) => Exit::of_error(&run),
                VerifyError::Replay { .. } => Exit::Infrastructure,
                VerifyError::Cancelled { .. } => Exit::Cancelled,
            }
        }
    }
}
