use std::path::Path;

use whittle_service::api::{self, RunRefusal, VerifyFailure};
use whittle_service::config::Config;
use whittle_service::run::VerifyError;

use crate::exit::Exit;

pub async fn run(config: &Config, bundle: &Path, runs: u32, device: Option<&str>) -> Exit {
    let result = match api::verify(config, bundle, runs, device).await {
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
                Exit::Live
            } else {
                Exit::NoResult
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                VerifyError::Bundle(_) | VerifyError::NoRuns => Exit::Usage,
                VerifyError::Refused(_) => Exit::NoResult,
                VerifyError::Run(run) => crate::exit::Exit::of_error(&run),
                VerifyError::Replay { .. } => Exit::Infrastructure,
            }
        }
    }
}
