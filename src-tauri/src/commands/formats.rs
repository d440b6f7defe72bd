//! *Import…*, *Run once and record*, *Copy as Markdown* and the filmstrip.

use tauri::State;
use whittle_service::api::{self, ImportRequest};
use whittle_service::api::{Filmstrip, ImportSummary, RecordOutcome};

use crate::clipboard::SystemClipboard;
use crate::error::AppError;
use crate::formats;
use crate::state::AppState;

/// Imports a Maestro flow or a Robo script as a new session of the workspace.
#[tauri::command]
#[specta::specta]
// The span names the format only: the request carries the flow's variables and the
// values the user marked private.
#[tracing::instrument(skip_all, fields(format = ?request.format), err)]
pub fn import_flow(request: ImportRequest) -> Result<ImportSummary, AppError> {
    api::import(&request).map_err(|e| AppError::import_failed(&e))
}

/// Replays an imported session once and records the crashes it causes.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn record_flow(
    state: State<'_, AppState>,
    workspace: String,
    session_id: String,
    device: Option<String>,
) -> Result<RecordOutcome, AppError> {
    // One device, one replay at a time: a minimize run may be using it.
    if state.runs.is_running() {
        return Err(AppError::RunInProgress);
    }
    formats::record(
        state.config_path.as_deref(),
        &workspace,
        &session_id,
        device,
    )
    .await
}

/// A finished run's result as ticket-ready Markdown.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn ticket_markdown(workspace: String, evidence_session: String) -> Result<String, AppError> {
    formats::markdown(&workspace, &evidence_session)
}

/// Puts a finished run's ticket Markdown on the system clipboard. Written from Rust:
/// WebKitGTK's `navigator.clipboard` refuses a write that follows an await (the text is
/// fetched first), which on Linux made *Copy as Markdown* always fail.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(clipboard), err)]
pub fn copy_ticket_markdown(
    clipboard: tauri::State<'_, SystemClipboard>,
    workspace: String,
    evidence_session: String,
) -> Result<(), AppError> {
    let text = formats::markdown(&workspace, &evidence_session)?;
    clipboard.put_text(text)
}

/// The masked frames of the minimal path, when the final confirmation took them.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn filmstrip(
    workspace: String,
    evidence_session: String,
) -> Result<Option<Filmstrip>, AppError> {
    formats::filmstrip(&workspace, &evidence_session)
}
