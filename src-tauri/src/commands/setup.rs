//! The first screen's setup commands: what was set up, logs, a real device.

use std::path::Path;

use tauri::State;
use whittle_service::api::PrivacyLevel;
use whittle_service::api::{self, DeviceSetupReport};

use crate::app_config::config_for;
use crate::error::AppError;
use crate::error_cause::RevealCause;
use crate::reveal::open_folder;
use crate::setup_view::{self, SetupView};
use crate::state::AppState;

/// Where the config is, whether this start created it, where the logs go.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn app_setup(state: State<'_, AppState>) -> SetupView {
    setup_view::view(&state)
}

/// Opens the log folder in the file manager.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn reveal_logs(state: State<'_, AppState>) -> Result<(), AppError> {
    let dir = state
        .log_dir
        .as_deref()
        .ok_or_else(|| AppError::RevealFailed {
            path: "logs".into(),
            cause: RevealCause::NoLogFolder,
        })?;
    open_folder(dir).map_err(|e| AppError::RevealFailed {
        path: dir.display().to_string(),
        cause: RevealCause::NotOpened {
            detail: e.0.to_string(),
        },
    })
}

/// The doctor's checks for a phone on adb, each with its fix.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn check_real_device(
    state: State<'_, AppState>,
    workspace: String,
) -> Result<DeviceSetupReport, AppError> {
    let config = config_for(state.config_path.as_deref(), Path::new(&workspace))?;
    Ok(api::check_real_device(&config).await)
}

/// Sets the screenshot privacy level in the config (from the next run on).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn set_privacy_level(
    state: State<'_, AppState>,
    level: PrivacyLevel,
) -> Result<SetupView, AppError> {
    let path = config_file(&state)?;
    api::set_privacy_level(path, level)?;
    Ok(setup_view::view(&state))
}

/// Points the config's device roles at the adb backend (`real`) or the simulator.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn use_real_device(state: State<'_, AppState>, real: bool) -> Result<SetupView, AppError> {
    let path = config_file(&state)?;
    api::use_backend(path, real)?;
    Ok(setup_view::view(&state))
}

/// The `whittle.json` a setting is written to; without one there is nothing to change.
fn config_file(state: &AppState) -> Result<&Path, AppError> {
    state
        .config_path
        .as_deref()
        .ok_or_else(crate::app_config::no_config)
}
