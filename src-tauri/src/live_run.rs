//! One minimize run as the app drives it: start the configured servers, run Phases
//! 0–5 with every event forwarded to the window, stop the servers, and turn the outcome
//! into the result screen's view.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use tokio_util::sync::CancellationToken;
use whittle_core::strategy::Strategy;
use whittle_service::client::Hub;
use whittle_service::config::Config;
use whittle_service::run::{
    localized_report, minimize, resume, sidecar_entry, MinimizeOptions, ResumeOptions, RunError,
    RunEvent, RunOutcome,
};
use whittle_text::Locale;

use crate::error::AppError;
use crate::run_update::{RunResultView, RunUpdate};
use crate::runs::FinishedRun;

/// What the run panel asks for.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct RunRequest {
    pub workspace: String,
    pub session_id: String,
    pub crash_id: String,
    /// Checked by the run (>= 1); an `i32` so the window sends a plain number.
    pub max_replays: i32,
    /// `None` lets Phase 0 pick the only (or first) device.
    pub device: Option<String>,
    /// The search strategy; the seed's unless the user opts in to `binary` or `flaky`.
    pub strategy: Strategy,
    /// Replays of the full path allowed until it reproduces (>= 1, checked like the
    /// budget); absent = 1, the seed's single try.
    #[serde(default)]
    pub baseline_tries: Option<i32>,
    /// How many devices replay at once (>= 1, checked by the run like the budget).
    pub devices: i32,
    /// The window's language (`en`, `zh-CN`): the result's report text is worded in it.
    pub locale: String,
}

impl RunRequest {
    pub fn options(&self) -> MinimizeOptions {
        MinimizeOptions {
            session: self.session_id.clone(),
            crash: Some(self.crash_id.clone()),
            max_replays: i64::from(self.max_replays),
            device: self.device.clone().filter(|d| !d.is_empty()),
            package: None,
            strategy: self.strategy,
            devices: u32::try_from(self.devices).unwrap_or(0),
            // Out-of-range values map to 0, which the run refuses.
            baseline_tries: u32::try_from(self.baseline_tries.unwrap_or(1)).unwrap_or(0),
        }
    }
}

/// What *Resume* asks for: an interrupted (or failed, or cancelled) run of the workspace,
/// to go on from its journal with what it recorded (session, crash, strategy, budget).
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ResumeRequest {
    pub workspace: String,
    pub evidence_session: String,
    /// The window's language, as in [`RunRequest`].
    pub locale: String,
}

impl ResumeRequest {
    pub fn options(&self) -> ResumeOptions {
        ResumeOptions::new(self.evidence_session.clone())
    }
}

/// The folder exports go to by default.
pub fn default_export_folder(workspace: &Path) -> PathBuf {
    workspace.join("exports")
}

pub async fn connect(config: &Config) -> Result<Hub, AppError> {
    Hub::connect(config)
        .await
        .map_err(|e| AppError::ServersUnavailable {
            reason: e.to_string(),
        })
}

/// What a run does once the servers are up: a new minimize, or one resumed from its
/// journal (an interrupted, failed or cancelled run). Everything around it (servers,
/// events, the result's view) is the same for both.
pub enum Job {
    Minimize(MinimizeOptions),
    Resume(ResumeOptions),
}

/// Starts the configured servers, runs `job` with every event forwarded to the window,
/// stops the servers and words the result in the window's language `locale`. Runs to
/// the end (or to cancellation) and returns the view plus what approval and export need
/// later. Refusals before any evidence exists are errors.
pub async fn run(
    config: &Config,
    job: Job,
    locale: &str,
    run_id: u32,
    cancel: CancellationToken,
    send: &(dyn Fn(RunUpdate) + Send + Sync),
) -> Result<(RunResultView, Option<(String, FinishedRun)>), AppError> {
    let hub = connect(config).await?;
    let on_event = |event: RunEvent| send(RunUpdate::Event { run_id, event });
    let outcome = match job {
        Job::Minimize(opts) => minimize(&hub, config, opts, on_event, cancel).await,
        Job::Resume(opts) => resume(&hub, config, opts, on_event, cancel).await,
    };
    hub.shutdown().await;
    finished_view(
        config,
        outcome.map_err(refused)?,
        Locale::from_env_value(locale),
    )
}

/// The result screen's view of a run that ended, and what approval and export need.
fn finished_view(
    config: &Config,
    outcome: RunOutcome,
    locale: Locale,
) -> Result<(RunResultView, Option<(String, FinishedRun)>), AppError> {
    let finished = outcome
        .summary
        .evidence_session
        .clone()
        .zip(
            outcome
                .evidence_dir
                .clone()
                .map(|evidence_dir| FinishedRun {
                    workspace: config.workspace.clone(),
                    evidence_dir,
                    pending: outcome.pending.clone(),
                }),
        );
    Ok((view(&outcome, &config.workspace, locale), finished))
}

fn refused(e: RunError) -> AppError {
    AppError::run_refused(&e)
}

fn view(outcome: &RunOutcome, workspace: &Path, locale: Locale) -> RunResultView {
    let sidecar_preview = outcome.pending.as_ref().and_then(|pending| {
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let entry = sidecar_entry(pending, now).ok()?;
        let keyed = serde_json::json!({ pending.crash_id.clone(): entry });
        serde_json::to_string_pretty(&keyed).ok()
    });
    RunResultView {
        summary: outcome.summary.clone(),
        report: localized_report(outcome, locale),
        pending: outcome.pending.clone(),
        sidecar_preview,
        evidence_dir: outcome
            .evidence_dir
            .as_ref()
            .map(|d| d.display().to_string()),
        default_export_folder: default_export_folder(workspace).display().to_string(),
        exportable: outcome.summary.rating.confidence.is_some() && outcome.evidence_dir.is_some(),
        approve_blocked: None,
        approved: false,
        failure: outcome
            .summary
            .end
            .failure()
            .map(whittle_text::failure_text),
        reopened: false,
    }
}
