//! The MCP servers Whittle ships. Each module serves one or more roles of docs/design.md §2 over
//! stdio, or over streamable HTTP with `--listen` (`listen`); `main.rs` picks one by subcommand.

pub mod sim;

pub mod adb;
pub(crate) mod tool_result;

pub mod analyzer;
pub use whittle_atomic as atomic;
pub mod capture_log;
pub mod element_match;
pub mod listen;
pub mod report;
pub mod report_analyzer;
