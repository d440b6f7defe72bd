//! `whittle.json` (docs/design.md §8): which MCP server serves each role, timing, masking,
//! export folders.
//! Its `mcpServers` block has the shape other MCP clients use, so entries paste in.

mod env_expand;
mod error;
mod export_folders;
mod for_workspace;
mod headers;
mod load;
mod mask_style;
mod masking;
mod roles;
mod secret;
mod server;
mod timing;
mod timing_file;

use std::collections::BTreeMap;
use std::path::PathBuf;

use whittle_contract::Role;

pub use error::ConfigError;
pub use export_folders::ExportConfig;
pub use mask_style::MaskStyle;
pub use masking::{MaskingConfig, PrivacyLevel};

pub use roles::{RoleServers, DEVICE_ROLES};
pub use secret::Secret;
pub(crate) use server::program_for;
pub use server::{
    resolve_bundled_command, HttpServer, ServerSpec, BUNDLED_SERVERS, DEFAULT_CONNECT_TIMEOUT_MS,
};
pub use timing::{Timing, TimingOverride, WaitMode, DEFAULT_POLL_MS};

/// Per-call timeout when the config does not set `call_timeout_ms`.
pub const DEFAULT_CALL_TIMEOUT_MS: u32 = 30_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Absolute path of the file this was loaded from.
    pub path: PathBuf,
    /// Absolute; a relative `workspace` is resolved against the config file's folder.
    pub workspace: PathBuf,
    pub servers: BTreeMap<String, ServerSpec>,
    /// A single server per role, or for the device roles one server per lab host
    /// (see `roles.rs` for the rule lists follow).
    pub roles: BTreeMap<Role, RoleServers>,
    /// The pacing of every device without its own entry.
    pub timing: Timing,
    /// `timing.devices`: each listed device's complete pacing (its overrides applied).
    pub device_timing: BTreeMap<String, Timing>,
    pub call_timeout_ms: u32,
    pub masking: MaskingConfig,
    /// `export`: where an agent's export may go besides `<workspace>/exports`.
    pub export: ExportConfig,
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

    /// The pacing for replays on `device`: its own entry under `timing.devices`, else
    /// the top-level `timing`.
    pub fn timing_for(&self, device: &str) -> Timing {
        self.device_timing
            .get(device)
            .copied()
            .unwrap_or(self.timing)
    }
}
