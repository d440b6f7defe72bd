//! The `whittle` command's integration tests in one binary: each file is a module of it,
//! so the dependency tree is linked once rather than once per file
//! (docs/architecture.md, "Building fast").

mod common;
mod lab_support;

mod analyze_sidecar_cli;
mod app_process_cli;
mod approve_matrix_cli;
mod approve_runs_cli;
mod bench_cli;
mod cancel_cli;
mod ci_recipe;
mod crash_choice_cli;
mod device_lab_cli;
mod device_lease_cli;
mod flaky_cli;
mod foreign_peer_cli;
mod foreign_run_cli;
mod formats_round_trip;
mod json_commands_cli;
mod json_refusals_cli;
mod leak_scan;
mod locale_cli;
mod log_colour_cli;
mod mcp_cli;
mod mcp_conformance_cli;
mod mcp_untrusted_input_cli;
mod minimize_all_cli;
mod minimize_cli;
mod minimize_crashes_cli;
mod minimize_devices_cli;
mod minimize_failures_cli;
mod other_commands;
mod privacy_levels_cli;
mod process_surface;
mod readme_commands;
mod resume_cli;
mod run_demo_script;
mod screenshot_masking;
mod signals_cli;
mod static_cli;
