//! The run panel's commands: devices, start, cancel.

use std::path::Path;

use tauri::ipc::Channel;
use tauri::State;

use crate::devices::{self, DeviceView};
use crate::error::AppError;
use crate::live_run::RunRequest;
use crate::run_control;
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
    devices::list(state.config_path.as_deref(), Path::new(&workspace)).await
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
        move |u| {
            let _ = on_update.send(u);
        },
    )
}

/// Asks the live run to stop; it still finishes its evidence and sends `ended`.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn cancel_run(state: State<'_, AppState>, run_id: u32) -> bool {
    state.runs.cancel(run_id)
}
