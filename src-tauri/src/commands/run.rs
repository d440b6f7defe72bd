//! The run panel's commands: devices, start, cancel.

use std::path::Path;

use tauri::ipc::Channel;
use tauri::State;
use whittle_service::api::{self, DeviceView, InterruptedRun};

use crate::app_config::config_for;
use crate::error::AppError;
use crate::run_control;
use crate::run_request::{ResumeRequest, RunRequest};
use crate::run_update::RunUpdate;
use crate::state::AppState;

/// The devices the configured mobile server offers.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn list_devices(
    state: State<'_, AppState>,
    workspace: String,
) -> Result<Vec<DeviceView>, AppError> {
    let config = config_for(state.config_path.as_deref(), Path::new(&workspace))?;
    api::list_devices(&config)
        .await
        .map_err(|e| AppError::devices(&e))
}

/// Starts minimizing one crash; progress and the end arrive on `on_update`.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, on_update), err)]
pub fn start_run(
    state: State<'_, AppState>,
    request: RunRequest,
    on_update: Channel<RunUpdate>,
) -> Result<u32, AppError> {
    run_control::start(
        state.config_path.as_deref(),
        &state.runs,
        request,
        to_window(on_update),
    )
}

/// Resumes an interrupted (or failed, or cancelled) run from its journal; progress and
/// the end arrive on `on_update` as for `start_run`.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, on_update), err)]
pub fn resume_run(
    state: State<'_, AppState>,
    request: ResumeRequest,
    on_update: Channel<RunUpdate>,
) -> Result<u32, AppError> {
    run_control::resume(
        state.config_path.as_deref(),
        &state.runs,
        request,
        to_window(on_update),
    )
}

/// Sends each update to the window; one the window can no longer take (it closed) is
/// dropped, and the run goes on to its end regardless.
fn to_window(on_update: Channel<RunUpdate>) -> impl Fn(RunUpdate) + Send + Sync + 'static {
    move |u| {
        let _ = on_update.send(u);
    }
}

/// Ends an interrupted run without resuming it; its evidence stays readable.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn discard_run(
    state: State<'_, AppState>,
    workspace: String,
    evidence_session: String,
) -> Result<(), AppError> {
    whittle_service::api::discard(Path::new(&workspace), &evidence_session).map_err(|e| {
        AppError::DiscardFailed {
            evidence_session: evidence_session.clone(),
            detail: e.to_string(),
        }
    })?;
    state.runs.own().ended(&evidence_session);
    Ok(())
}

/// The workspace's interrupted runs (`own`: this app was closed while it ran them).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn interrupted_runs(state: State<'_, AppState>, workspace: String) -> Vec<InterruptedRun> {
    api::interrupted_runs(Path::new(&workspace), state.runs.own())
}

/// Asks the live run to stop; it still finishes its evidence and sends `ended`.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn cancel_run(state: State<'_, AppState>, run_id: u32) -> bool {
    state.runs.cancel(run_id)
}
