//! The MCP servers Whittle ships. Each module serves one or more roles of docs/design.md §2 over
//! stdio, or over streamable HTTP with `--listen` (`listen`); `main.rs` picks one by subcommand.

pub mod adb;
pub mod device;
pub mod sim;
pub(crate) mod tool_result;

pub mod analyzer;
pub use whittle_atomic as atomic;
pub mod listen;
pub mod report;
pub mod report_analyzer;
