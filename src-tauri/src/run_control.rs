//! Starting, cancelling and (on quit) winding down the one live run.

use std::path::Path;
use std::sync::Arc;

use crate::app_config::config_for;
use crate::error::AppError;
use crate::live_run::{run_minimize, RunRequest};
use crate::run_update::RunUpdate;
use crate::runs::Runs;

/// Starts a run in the background and returns its id; every event and then exactly
/// one `Ended` go to `send`. Bad input is refused here, before any side effect.
pub fn start(
    config_path: Option<&Path>,
    runs: &Arc<Runs>,
    request: RunRequest,
    send: impl Fn(RunUpdate) + Send + Sync + 'static,
) -> Result<u32, AppError> {
    let options = request.options();
    options
        .budget()
        .and_then(|_| options.search_options())
        .map_err(|e| AppError::RunRefused {
            reason: e.to_string(),
        })?;
    let config = config_for(config_path, Path::new(&request.workspace))?;
    let (run_id, cancel) = runs.begin()?;
    tracing::info!(run_id, session = %request.session_id, crash = %request.crash_id, max_replays = request.max_replays, devices = request.devices, strategy = %request.strategy, "minimize run started");
    let slot = Arc::clone(runs);
    let task = tauri::async_runtime::spawn(async move {
        let ended = match run_minimize(&config, &request, run_id, cancel, &send).await {
            Ok((view, finished)) => {
                let summary = &view.summary;
                tracing::info!(run_id, status = ?summary.status, attempts = summary.attempts, confidence = ?summary.confidence, evidence = ?summary.evidence_session, "minimize run ended");
                slot.end(run_id, finished);
                RunUpdate::Ended {
                    run_id,
                    result: Some(Box::new(view)),
                    error: None,
                }
            }
            Err(e) => {
                tracing::warn!(run_id, error = %e, "minimize run refused");
                slot.end(run_id, None);
                RunUpdate::Ended {
                    run_id,
                    result: None,
                    error: Some(e.payload()),
                }
            }
        };
        send(ended);
    });
    runs.attach(run_id, task);
    Ok(run_id)
}
