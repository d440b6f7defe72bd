//! `whittle.json` (SPEC §8): which MCP server serves each role, timing, masking.
//! Its `mcpServers` block has the shape other MCP clients use, so entries paste in.

mod error;
mod for_workspace;
mod load;
mod masking;
mod server;
mod timing;

use std::collections::BTreeMap;
use std::path::PathBuf;

use whittle_core::contract::Role;

pub use error::ConfigError;
pub use masking::MaskingConfig;
pub(crate) use server::program_for;
pub use server::{resolve_bundled_command, ServerSpec, BUNDLED_SERVERS};
pub use timing::Timing;

/// Per-call timeout when the config does not set `call_timeout_ms`.
pub const DEFAULT_CALL_TIMEOUT_MS: u32 = 30_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Absolute path of the file this was loaded from.
    pub path: PathBuf,
    /// Absolute; a relative `workspace` is resolved against the config file's folder.
    pub workspace: PathBuf,
    pub servers: BTreeMap<String, ServerSpec>,
    pub roles: BTreeMap<Role, String>,
    pub timing: Timing,
    pub call_timeout_ms: u32,
    pub masking: MaskingConfig,
}

impl Config {
    /// The folder relative paths in the file are resolved against; stdio servers
    /// also start there, so relative paths in their `args` mean the same thing.
    pub fn base_dir(&self) -> PathBuf {
        self.path
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
    }
}
