//! MCP client, replay runner and minimize orchestrator.

pub mod client;
pub mod config;
pub mod export;
pub mod mask;
pub mod sidecar;
pub mod replay;
pub mod run;
pub mod evidence;
