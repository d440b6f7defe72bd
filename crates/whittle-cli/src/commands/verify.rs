use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_service::api::Config;
use whittle_service::api::{self, RunRefusal, VerifyFailure};
use whittle_service::api::{VerifyError, VerifyReport};

use crate::exit::Exit;
use crate::json_answer;
use crate::mcp::setup_answers::VerifyAnswer;
use crate::mcp::ToolFailure;
use crate::signals::CancelOnSignal;

pub async fn run(
    config: &Config,
    bundle: &Path,
    runs: u32,
    device: Option<&str>,
    json: bool,
) -> Exit {
    let cancel = CancellationToken::new();
    // SIGINT, SIGTERM and SIGHUP stop the replays; the servers are still shut down.
    let signals = CancelOnSignal::token(cancel.clone());
    let verified = api::verify(config, bundle, runs, device, &cancel).await;
    drop(signals);
    match verified {
        Ok(report) => {
            let exit = exit_of_report(&report);
            if json {
                return json_answer::answer(&VerifyAnswer::of(report), exit);
            }
            println!(
                "reproduced {} of {} replays of {} on {} ({} {})",
                report.reproduced,
                report.runs,
                report.target_fingerprint,
                report.device,
                report.package,
                report.app_version.as_deref().unwrap_or("")
            );
            exit
        }
        Err(e) => {
            let failure = failure_of(&e);
            if json {
                return json_answer::failure(&failure);
            }
            eprintln!("error: {e}");
            if let VerifyFailure::Servers(servers) = &e {
                for problem in &servers.problems {
                    eprintln!("  fix: {}", problem.fix(&config.path));
                }
            }
            Exit::of_number(failure.exit)
        }
    }
}

/// Every replay reproduced → proven; some → unproven; none → not reproduced.
fn exit_of_report(report: &VerifyReport) -> Exit {
    if report.reproduced == report.runs {
        Exit::Proven
    } else if report.reproduced > 0 {
        Exit::Unproven
    } else {
        Exit::NotReproduced
    }
}

/// A verify that gave no report, with the exit code and typed cause of its failure.
fn failure_of(e: &VerifyFailure) -> ToolFailure {
    match e {
        VerifyFailure::Servers(servers) => ToolFailure::refused(RunRefusal::of_servers(servers), e),
        VerifyFailure::Verify(VerifyError::Run(run)) => {
            ToolFailure::refused(RunRefusal::of(run), e)
        }
        VerifyFailure::Verify(
            VerifyError::Bundle(_) | VerifyError::NoRuns | VerifyError::Refused(_),
        ) => ToolFailure::new(Exit::Refused, e),
        VerifyFailure::Verify(VerifyError::Replay { .. }) => {
            ToolFailure::new(Exit::Infrastructure, e)
        }
        VerifyFailure::Verify(VerifyError::Cancelled { .. }) => {
            ToolFailure::new(Exit::Cancelled, e)
        }
    }
}
