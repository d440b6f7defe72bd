//! Starting, resuming, cancelling and (on quit) winding down the one live run.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use whittle_service::api::Config;
use whittle_service::api::RunEvent;
use whittle_service::api::{self, LiveFrame, RunJob, RunResultView, Watched};
use whittle_text::Locale;

use crate::app_config::config_for;
use crate::error::AppError;
use crate::run_request::{ResumeRequest, RunRequest};
use crate::run_update::RunUpdate;
use crate::runs::WindowRuns;

type Sender = Arc<dyn Fn(RunUpdate) + Send + Sync>;
type Ending = Result<RunResultView, AppError>;

/// Starts a run in the background and returns its id; every event and then exactly
/// one `Ended` go to `send`. Bad input is refused here, before any side effect.
pub fn start(
    config_path: Option<&Path>,
    runs: &Arc<WindowRuns>,
    request: RunRequest,
    send: impl Fn(RunUpdate) + Send + Sync + 'static,
) -> Result<u32, AppError> {
    let spec = request.spec().map_err(|e| AppError::invalid_count(&e))?;
    let config = config_for(config_path, Path::new(&request.workspace))?;
    // A re-proof's session, crash and starting path are the re-proven run's, checked
    // against this workspace before anything starts.
    let spec = match &request.reprove {
        Some(evidence) => api::reproof_spec(&config.workspace, evidence, spec)
            .map_err(|e| AppError::reproof_refused(&e))?,
        None => spec,
    };
    let (run_id, cancel) = runs.begin()?;
    tracing::info!(run_id, session = %request.session_id, crash = %request.crash_id, max_replays = request.max_replays, devices = request.devices, strategy = %request.strategy, "minimize run started");
    let job = RunJob::New(spec);
    launch(runs, config, run_id, cancel, job, request.locale, send);
    Ok(run_id)
}

/// Resumes an interrupted (or failed, or cancelled) run from its journal, like
/// [`start`]; a resume the run refuses (it changed, or is going on) ends with its error.
pub fn resume(
    config_path: Option<&Path>,
    runs: &Arc<WindowRuns>,
    request: ResumeRequest,
    send: impl Fn(RunUpdate) + Send + Sync + 'static,
) -> Result<u32, AppError> {
    let config = config_for(config_path, Path::new(&request.workspace))?;
    let (run_id, cancel) = runs.begin()?;
    tracing::info!(run_id, evidence = %request.evidence_session, "minimize run resumed");
    let job = request.job();
    launch(runs, config, run_id, cancel, job, request.locale, send);
    Ok(run_id)
}

/// Runs `job` as run `run_id` in the background (see [`spawn`]), its updates going to
/// `send`.
fn launch(
    runs: &Arc<WindowRuns>,
    config: Config,
    run_id: u32,
    cancel: CancellationToken,
    job: RunJob,
    locale: String,
    send: impl Fn(RunUpdate) + Send + Sync + 'static,
) {
    let send: Sender = Arc::new(send);
    let events = Arc::clone(&send);
    let host = Arc::clone(runs);
    spawn(runs, run_id, send, async move {
        let workspace = config.workspace.clone();
        // The window watches the devices: live frames go over the run's channel too.
        let on_event = Watched {
            events: |event: RunEvent| {
                host.note_event(&workspace, &event);
                events(RunUpdate::Event { run_id, event })
            },
            frames: |frame: LiveFrame| events(RunUpdate::Frame { run_id, frame }),
        };
        let outcome = api::run(&config, job, on_event, cancel)
            .await
            .map_err(|e| AppError::run_failed(&e))?;
        // The result view in the window's language; approval and export read what the
        // host keeps.
        Ok(host.finish(&workspace, &outcome, Locale::from_env_value(&locale)))
    });
}

/// Runs `run` in the background: frees the slot once it ended, and sends exactly one
/// `Ended`.
fn spawn(
    runs: &Arc<WindowRuns>,
    run_id: u32,
    send: Sender,
    run: impl Future<Output = Ending> + Send + 'static,
) {
    let slot = Arc::clone(runs);
    let task = tauri::async_runtime::spawn(async move {
        let ended = match run.await {
            Ok(view) => {
                let summary = &view.summary;
                tracing::info!(run_id, status = summary.end.status(), attempts = summary.attempts, confidence = ?summary.rating.confidence, evidence = ?summary.evidence_session, "minimize run ended");
                slot.end(run_id);
                RunUpdate::Ended {
                    run_id,
                    result: Some(Box::new(view)),
                    error: None,
                }
            }
            Err(e) => {
                tracing::warn!(run_id, error = %e, "minimize run refused");
                slot.end(run_id);
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
}
