//! The session browser's commands (read-only).

use std::path::Path;

use tauri::State;
use whittle_core::workspace::SessionSummary;

use crate::error::AppError;
use crate::state::AppState;
use crate::view::{self, SessionDetail};

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
    view::sessions(Path::new(&workspace))
}

/// One session with its crashes and each crash's step path.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn session_detail(workspace: String, session_id: String) -> Result<SessionDetail, AppError> {
    view::session_detail(Path::new(&workspace), &session_id)
}
