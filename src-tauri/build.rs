fn main() {
    // The app manifest makes every command opt-in: the window may call only what
    // capabilities/default.json grants.
    let manifest = tauri_build::AppManifest::new().commands(&[
        "default_workspace",
        "list_sessions",
        "session_detail",
        "open_past_run",
        "watch_workspace",
        "list_devices",
        "start_run",
        "resume_run",
        "discard_run",
        "interrupted_runs",
        "cancel_run",
        "approve_run",
        "export_run",
        "reveal_path",
        "screenshot_image",
        "inspect_point",
        "nearest_nodes",
        "copy_text",
        "screenshot_thumbnail",
        "step_thumbnail",
        "apply_masks",
        "omit_screenshot",
        "preview_masks",
        "review_checklist",
        "mark_reviewed",
        "app_setup",
        "reveal_logs",
        "check_real_device",
        "use_real_device",
        "set_privacy_level",
        "import_flow",
        "record_flow",
        "ticket_markdown",
        "copy_ticket_markdown",
        "filmstrip",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("tauri build script failed");
}
