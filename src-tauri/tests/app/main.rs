//! The desktop app's integration tests in one binary: each file is a module of it, so
//! the dependency tree is linked once rather than once per file (docs/architecture.md,
//! "Building fast").

#[path = "../../../crates/whittle-core/tests/core/alone.rs"]
mod alone;
mod common;

mod approve_checks;
mod error_payload;
mod evidence_identity;
mod formats_flow;
mod ipc;
mod log_file;
mod past_runs;
mod resume_flow;
mod run_flow;
mod surface;
