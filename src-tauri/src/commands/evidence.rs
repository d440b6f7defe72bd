//! The result screen's and screenshot viewer's commands.

use tauri::State;

use crate::clipboard::SystemClipboard;
use crate::error::AppError;
use crate::reveal;
use crate::state::AppState;
use whittle_service::api::pictures::{
    self, MaskPatchView, MaskPreviewRequest, MaskRequest, ScreenshotView,
};
use whittle_service::api::ReviewChecklist;
use whittle_service::api::{self, Approval, InspectedNode, NearNode, Replace};

/// Writes the finished run's result into the original session's sidecar; `replace`
/// once the tester confirmed replacing a newer approval.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn approve_run(
    state: State<'_, AppState>,
    evidence_session: String,
    replace: bool,
) -> Result<Approval, AppError> {
    Ok(state
        .runs
        .approve_held(&evidence_session, Replace::confirmed(replace))?)
}

/// Writes the bug-ticket bundle into `folder` and returns the bundle's path.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn export_run(
    state: State<'_, AppState>,
    evidence_session: String,
    folder: String,
) -> Result<String, AppError> {
    let bundle = state.runs.export_held(&evidence_session, folder.into())?;
    Ok(bundle.display().to_string())
}

/// Opens the file manager on something this window wrote.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub fn reveal_path(state: State<'_, AppState>, path: String) -> Result<(), AppError> {
    reveal::reveal(&state.runs, &path)
}

/// One archived (masked) picture of an evidence session: an attempt's screenshot or a
/// filmstrip frame.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn screenshot_image(
    workspace: String,
    evidence_session: String,
    name: String,
) -> Result<ScreenshotView, AppError> {
    Ok(pictures::view(&workspace, &evidence_session, &name)?)
}

/// A small preview of an archived screenshot, as a data URL.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn screenshot_thumbnail(
    workspace: String,
    evidence_session: String,
    name: String,
) -> Result<String, AppError> {
    Ok(pictures::thumbnail(&workspace, &evidence_session, &name)?)
}

/// A small preview of a recorded step's own screenshot, as a data URL.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn step_thumbnail(
    workspace: String,
    session_id: String,
    src: String,
) -> Result<String, AppError> {
    Ok(pictures::step_thumbnail(&workspace, &session_id, &src)?)
}

/// Burns the reviewer's rectangles into the named pictures (screenshots and frames).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(request), fields(evidence_session = %request.evidence_session), err)]
pub fn apply_masks(request: MaskRequest) -> Result<u32, AppError> {
    Ok(pictures::apply(&request)?)
}

/// Deletes a picture (a screenshot or a frame) from the evidence and so from any export.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn omit_screenshot(
    workspace: String,
    evidence_session: String,
    name: String,
) -> Result<(), AppError> {
    Ok(pictures::omit(&workspace, &evidence_session, &name)?)
}

/// The reviewer's unapplied masks on one screenshot, rendered exactly as Apply will burn
/// them (nothing is written).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(request), fields(evidence_session = %request.evidence_session), err)]
pub fn preview_masks(request: MaskPreviewRequest) -> Result<Vec<MaskPatchView>, AppError> {
    Ok(pictures::preview(&request)?)
}

/// Which pictures of an evidence session (screenshots and filmstrip frames) a person has
/// checked, and which were omitted.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn review_checklist(
    workspace: String,
    evidence_session: String,
) -> Result<ReviewChecklist, AppError> {
    Ok(pictures::checklist(&workspace, &evidence_session)?)
}

/// Marks one picture as checked (or not) on the review checklist.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn mark_reviewed(
    workspace: String,
    evidence_session: String,
    name: String,
    reviewed: bool,
) -> Result<ReviewChecklist, AppError> {
    Ok(pictures::mark(
        &workspace,
        &evidence_session,
        &name,
        reviewed,
    )?)
}

/// The hierarchy nodes under a point (picture pixels) of a kept picture, innermost
/// first, each with its Maestro selector and Robo descriptor.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn inspect_point(
    workspace: String,
    evidence_session: String,
    name: String,
    x: i32,
    y: i32,
) -> Result<Vec<InspectedNode>, AppError> {
    Ok(api::inspect_point(
        &workspace,
        &evidence_session,
        &name,
        x,
        y,
    )?)
}

/// On an attempt that stopped because plan step `step`'s element was not found: the
/// nodes of its picture closest to what the step looked for.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub fn nearest_nodes(
    workspace: String,
    evidence_session: String,
    name: String,
    step: u32,
) -> Result<Vec<NearNode>, AppError> {
    Ok(api::nearest_to_step(
        &workspace,
        &evidence_session,
        &name,
        step,
    )?)
}

/// Puts a selector or descriptor the inspector shows on the system clipboard (see
/// `clipboard.rs` for why the backend writes it).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(clipboard, text), err)]
pub fn copy_text(
    clipboard: tauri::State<'_, SystemClipboard>,
    text: String,
) -> Result<(), AppError> {
    clipboard.put_text(text)
}
