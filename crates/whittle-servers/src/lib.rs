//! The MCP servers Whittle ships. Each module serves one or more roles of SPEC §2 over
//! stdio; `main.rs` picks one by subcommand.
