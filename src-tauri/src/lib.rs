//! Whittle's desktop shell: Tauri wiring only — commands, state, channels and window
//! concerns. Commands are one-line delegates into the application API
//! (`whittle_service::api`, docs/architecture.md); the UI talks to them through the
//! generated `ui/src/bindings.ts`.

pub mod app_config;
pub mod app_paths;
pub mod bindings;
pub mod clipboard;
pub mod commands;
pub mod error;
pub mod error_cause;
pub mod formats;
pub mod logging;
pub mod newer_approval;
pub mod queue_control;
pub mod reveal;
pub mod run_control;
pub mod run_request;
pub mod run_update;
pub mod runs;
pub mod setup_view;
pub mod state;

use tauri::{Manager, Runtime};

use crate::state::AppState;

/// The typed command set shared by the running app and the bindings export.
pub fn specta_builder<R: Runtime>() -> tauri_specta::Builder<R> {
    tauri_specta::Builder::<R>::new().commands(tauri_specta::collect_commands![
        commands::default_workspace,
        commands::list_sessions,
        commands::session_detail,
        commands::open_past_run,
        commands::watch_workspace,
        commands::list_devices,
        commands::start_run,
        commands::resume_run,
        commands::discard_run,
        commands::interrupted_runs,
        commands::cancel_run,
        commands::start_queue,
        commands::pause_queue,
        commands::resume_queue,
        commands::move_queue_entry,
        commands::cancel_queue_entry,
        commands::cancel_queue,
        commands::queue_view,
        commands::approve_run,
        commands::export_run,
        commands::reveal_path,
        commands::screenshot_image,
        commands::inspect_point,
        commands::nearest_nodes,
        commands::copy_text,
        commands::screenshot_thumbnail,
        commands::step_thumbnail,
        commands::apply_masks,
        commands::omit_screenshot,
        commands::preview_masks,
        commands::review_checklist,
        commands::mark_reviewed,
        commands::app_setup,
        commands::reveal_logs,
        commands::check_real_device,
        commands::use_real_device,
        commands::set_privacy_level,
        commands::import_flow,
        commands::record_flow,
        commands::ticket_markdown,
        commands::copy_ticket_markdown,
        commands::filmstrip,
    ])
}

/// Everything the app registers, on any runtime (the real one, or tests' mock runtime).
pub fn configure<R: Runtime>(builder: tauri::Builder<R>, state: AppState) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .manage(state)
        .manage(clipboard::SystemClipboard::default())
        .invoke_handler(specta_builder::<R>().invoke_handler())
}

pub fn run() {
    let (log_dir, _log_guard) = logging::init(app_paths::log_dir().as_deref());
    let mut state = AppState::from_env();
    state.log_dir = log_dir;
    let app = configure(tauri::Builder::default(), state)
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(finish_run_before_exit),
        Err(e) => {
            tracing::error!(error = %e, "the Whittle window could not start");
            std::process::exit(1);
        }
    }
}

/// Quitting during a run cancels it and waits until its evidence is finalized and the
/// capture stopped (seconds at most), then quits: nothing is left half-written.
fn finish_run_before_exit<R: Runtime>(app: &tauri::AppHandle<R>, event: tauri::RunEvent) {
    let tauri::RunEvent::ExitRequested { api, .. } = event else {
        return;
    };
    let Some(task) = app.state::<AppState>().runs.cancel_for_exit() else {
        return;
    };
    tracing::info!("quit requested during a run: cancelling it and finalizing its evidence first");
    api.prevent_exit();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let _ = task.await;
        app.exit(0);
    });
}
