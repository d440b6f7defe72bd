//! The session browser's commands (read-only).

use std::path::Path;

use tauri::ipc::Channel;
use tauri::State;
use whittle_core::workspace::SessionSummary;

use whittle_service::api::{self, ReopenedRun, SessionDetail, WorkspaceChange};

use crate::error::AppError;
use crate::state::AppState;

/// The workspace the window opens on.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn default_workspace(state: State<'_, AppState>) -> String {
    state.default_workspace.display().to_string()
}

/// The sessions of a workspace, newest first; malformed ones carry their problem.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn list_sessions(workspace: String) -> Result<Vec<SessionSummary>, AppError> {
    Ok(api::sessions(Path::new(&workspace))?)
}

/// One session with its crashes and each crash's step path.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn session_detail(workspace: String, session_id: String) -> Result<SessionDetail, AppError> {
    Ok(api::session_detail(Path::new(&workspace), &session_id)?)
}

/// A past minimize run of `session_id`, read from its evidence without replaying it.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn open_past_run(
    state: State<'_, AppState>,
    workspace: String,
    session_id: String,
    evidence_session: String,
) -> Result<ReopenedRun, AppError> {
    Ok(state
        .runs
        .reopen_run(Path::new(&workspace), &session_id, &evidence_session)?)
}

/// Follows `workspace`'s sessions folder (replacing the previous one); each burst of
/// changes arrives on `on_change` with the names of the sessions that changed.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, on_change), err)]
pub fn watch_workspace(
    state: State<'_, AppState>,
    workspace: String,
    on_change: Channel<WorkspaceChange>,
) -> Result<(), AppError> {
    Ok(state.watch.watch(Path::new(&workspace), move |change| {
        let _ = on_change.send(change);
    })?)
}
