//! Starting, resuming, cancelling and (on quit) winding down the one live run.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use whittle_service::api::Config;
use whittle_service::api::RunEvent;
use whittle_service::api::{
    self, result_view, LiveFrame, ResultFacts, RunJob, RunResultView, Watched,
};
use whittle_text::Locale;

use crate::app_config::config_for;
use crate::error::AppError;
use crate::run_request::{ResumeRequest, RunRequest};
use crate::run_update::RunUpdate;
use crate::runs::{FinishedRun, WindowRuns};

type Sender = Arc<dyn Fn(RunUpdate) + Send + Sync>;
type Ending = Result<(RunResultView, Option<(String, FinishedRun)>), AppError>;

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
    let send = tracked(runs, config.workspace.clone(), send);
    let events = Arc::clone(&send);
    spawn(runs, run_id, send, async move {
        // The window watches the devices: live frames go over the run's channel too.
        let on_event = Watched {
            events: |event: RunEvent| events(RunUpdate::Event { run_id, event }),
            frames: |frame: LiveFrame| events(RunUpdate::Frame { run_id, frame }),
        };
        let outcome = api::run(&config, job, on_event, cancel)
            .await
            .map_err(|e| AppError::run_failed(&e))?;
        // The result view, worded in the window's language, and what approval and
        // export need later.
        let facts = ResultFacts::live(&outcome, Locale::from_env_value(&locale));
        let view = result_view(&config.workspace, &facts);
        let finished = outcome
            .summary
            .evidence_session
            .clone()
            .zip(facts.evidence_dir.map(|evidence_dir| FinishedRun {
                workspace: config.workspace.clone(),
                evidence_dir,
                approvable: facts.approvable,
            }));
        Ok((view, finished))
    });
}

/// `send`, noting the run's evidence session among the app's own runs once it exists
/// (so a run cut off with the window is offered for resuming at the next start).
fn tracked(
    runs: &Arc<WindowRuns>,
    workspace: PathBuf,
    send: impl Fn(RunUpdate) + Send + Sync + 'static,
) -> Sender {
    let runs = Arc::clone(runs);
    Arc::new(move |update: RunUpdate| {
        if let RunUpdate::Event {
            event: RunEvent::Started {
                evidence_session, ..
            },
            ..
        } = &update
        {
            runs.own().started(&workspace, evidence_session);
        }
        send(update);
    })
}

/// Runs `run` in the background: frees the slot, forgets the run among the app's own
/// once it ended, and sends exactly one `Ended`.
fn spawn(
    runs: &Arc<WindowRuns>,
    run_id: u32,
    send: Sender,
    run: impl Future<Output = Ending> + Send + 'static,
) {
    let slot = Arc::clone(runs);
    let task = tauri::async_runtime::spawn(async move {
        let ended = match run.await {
            Ok((view, finished)) => {
                let summary = &view.summary;
                tracing::info!(run_id, status = summary.end.status(), attempts = summary.attempts, confidence = ?summary.rating.confidence, evidence = ?summary.evidence_session, "minimize run ended");
                if let Some((evidence, _)) = &finished {
                    slot.own().ended(evidence);
                }
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
}
