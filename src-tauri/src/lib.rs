//! Whittle's desktop shell: Tauri wiring only. Commands are one-line delegates into
//! library code; the UI talks to them through the generated `ui/src/bindings.ts`.

pub mod app_config;
pub mod bindings;
pub mod commands;
pub mod devices;
pub mod error;
pub mod live_run;
pub mod result_actions;
pub mod reveal;
pub mod run_control;
pub mod run_update;
pub mod runs;
pub mod screenshots;
pub mod state;
pub mod view;

use tauri::{Manager, Runtime};

use crate::state::AppState;

/// The typed command set shared by the running app and the bindings export.
pub fn specta_builder<R: Runtime>() -> tauri_specta::Builder<R> {
    tauri_specta::Builder::<R>::new().commands(tauri_specta::collect_commands![
        commands::default_workspace,
        commands::list_sessions,
        commands::session_detail,
        commands::list_devices,
        commands::start_run,
        commands::cancel_run,
        commands::approve_run,
        commands::export_run,
        commands::reveal_path,
        commands::screenshot_image,
        commands::screenshot_thumbnail,
        commands::step_thumbnail,
        commands::apply_masks,
        commands::omit_screenshot,
    ])
}

/// Everything the app registers, on any runtime (the real one, or tests' mock runtime).
pub fn configure<R: Runtime>(builder: tauri::Builder<R>, state: AppState) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .manage(state)
        .invoke_handler(specta_builder::<R>().invoke_handler())
}

pub fn run() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let app = configure(tauri::Builder::default(), AppState::from_env())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .build(tauri::generate_context!("../tauri.conf.json"));
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
