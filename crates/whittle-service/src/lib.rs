//! MCP client, replay runner and minimize orchestrator.

pub use whittle_atomic as atomic;
pub mod api;
pub mod client;
pub mod config;
pub mod device_lease;
pub mod doctor;
pub mod evidence;
pub mod export;
mod folder_lock;
pub mod import;
pub mod journal_key;
pub mod mask;
pub mod replay;
pub mod result;
pub mod run;
mod safe_chars;
pub mod sidecar;
pub mod watch;
