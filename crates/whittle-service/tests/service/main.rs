//! whittle-service's integration tests in one binary: each file is a module of it, so
//! the dependency tree is linked once rather than once per file (docs/architecture.md,
//! "Building fast").

#[path = "../../../whittle-core/tests/core/alone.rs"]
mod alone;
mod client_support;
mod export_support;
mod leak_support;
mod live_support;
mod mask_support;
mod sidecar_support;

mod atomic_faults;
mod client_config;
mod client_errors;
mod client_http;
mod client_http_keep_alive;
mod client_lab_config;
mod client_shared_process;
mod device_lease_processes;
mod doctor_checks;
mod evidence_film_review;
mod export_bundle;
mod export_flows;
mod export_folder_race;
mod export_repro_md;
mod inspect_evidence;
mod mask_burn;
mod mask_formats;
mod mask_hides_text;
mod mask_huge;
mod mask_leak;
mod mask_popups;
mod mask_real_dumps;
mod mask_screenshot;
mod module_layers;
mod queue_all;
mod recorded_run;
mod replay_waits;
mod resume_live;
mod resume_props;
mod run_hint_live;
mod sidecar_write;
mod soak;
mod untrusted_nesting;
mod watch_live;
