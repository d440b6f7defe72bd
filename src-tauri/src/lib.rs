//! Whittle's desktop shell: Tauri wiring only. Commands are one-line delegates into
//! library code; the UI talks to them through the generated `ui/src/bindings.ts`.

pub mod bindings;
pub mod commands;
pub mod error;
pub mod state;
pub mod view;

use tauri::Runtime;

use crate::state::AppState;

/// The typed command set shared by the running app and the bindings export.
pub fn specta_builder<R: Runtime>() -> tauri_specta::Builder<R> {
    tauri_specta::Builder::<R>::new().commands(tauri_specta::collect_commands![
        commands::default_workspace,
        commands::list_sessions,
        commands::session_detail,
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
    let result = configure(tauri::Builder::default(), AppState::from_env())
        .run(tauri::generate_context!("../tauri.conf.json"));
    if let Err(e) = result {
        tracing::error!(error = %e, "the Whittle window could not start");
        std::process::exit(1);
    }
}
