//! *Minimize all*: start the queue of a session or the workspace, and its controls.

use tauri::ipc::Channel;
use tauri::State;
use whittle_service::api::QueueView;
use whittle_text::Locale;

use crate::error::AppError;
use crate::queue_control::{self, QueueOptions, QueueRequest, QueueUpdate};
use crate::state::AppState;

/// Queues every crash group of `session` (or of the whole workspace) not yet minimized
/// and runs them one after another; every change and each item's run arrive on
/// `on_update`. Holds the run slot: no single run starts until the queue ends.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, on_update), err)]
pub fn start_queue(
    state: State<'_, AppState>,
    workspace: String,
    session: Option<String>,
    options: QueueOptions,
    locale: String,
    on_update: Channel<QueueUpdate>,
) -> Result<QueueView, AppError> {
    queue_control::start(
        state.config_path.as_deref(),
        &state.runs,
        &state.queue,
        QueueRequest {
            workspace,
            session,
            options,
            locale: Locale::from_env_value(&locale),
        },
        move |u| {
            let _ = on_update.send(u);
        },
    )
}

/// The running item finishes; the next one waits for `resume_queue`.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn pause_queue(state: State<'_, AppState>) -> bool {
    queue_control::control(&state.queue, |q| {
        q.pause();
        true
    })
}

#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn resume_queue(state: State<'_, AppState>) -> bool {
    queue_control::control(&state.queue, |q| {
        q.resume();
        true
    })
}

/// Moves waiting entry `id` to `to_index`; false when it is not waiting.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn move_queue_entry(state: State<'_, AppState>, id: u32, to_index: u32) -> bool {
    queue_control::control(&state.queue, |q| {
        q.move_entry(id, usize::try_from(to_index).unwrap_or(usize::MAX))
    })
}

/// Cancels a waiting entry, or asks the running one to stop.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn cancel_queue_entry(state: State<'_, AppState>, id: u32) -> bool {
    queue_control::control(&state.queue, |q| q.cancel_entry(id))
}

/// Cancels every waiting entry and the running one; the queue ends.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn cancel_queue(state: State<'_, AppState>) -> bool {
    queue_control::control(&state.queue, |q| {
        q.cancel_all();
        true
    })
}

/// The window's queue as it stands, if one was started.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub fn queue_view(state: State<'_, AppState>) -> Option<QueueView> {
    state.queue.get().map(|q| q.view())
}
