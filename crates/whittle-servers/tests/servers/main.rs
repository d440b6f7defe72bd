//! whittle-servers' integration tests in one binary: each file is a module of it, so the
//! dependency tree is linked once rather than once per file (docs/architecture.md,
//! "Building fast").

mod answer_support;
mod fixture_support;
mod listen_support;
mod report_support;
mod sim_support;
#[path = "fake_adb/support.rs"]
mod support;

mod adb_logs;
mod adb_maestro_selectors;
mod adb_parsers;
mod adb_real_dumps;
mod adb_remote_serial;
mod adb_tap_real_dump;
mod adb_tools;
mod adb_typing;
mod analyzer_tools;
mod device_tool_list;
mod listen_files;
mod listen_http;
mod listen_leases;
mod listen_load;
mod listen_python_peer;
mod listen_session_end;
mod report_tools;
mod sim_concurrency;
mod sim_crashes;
mod sim_demo;
mod sim_faults;
mod sim_fresh_runs;
mod sim_matching;
mod sim_screens_capture;
mod sim_tools;
