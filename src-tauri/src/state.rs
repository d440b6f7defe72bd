//! What the app keeps between commands.

use std::path::PathBuf;
use std::sync::Arc;

use crate::app_config::find_config;
use crate::runs::Runs;

/// Overrides the workspace the app opens on (the e2e test and `scripts/run-demo` use it).
pub const WORKSPACE_ENV: &str = "WHITTLE_WORKSPACE";

#[derive(Clone)]
pub struct AppState {
    pub default_workspace: PathBuf,
    /// The `whittle.json` runs use; `None` leaves the app a browser until one exists.
    pub config_path: Option<PathBuf>,
    pub runs: Arc<Runs>,
}

impl AppState {
    pub fn new(default_workspace: PathBuf) -> Self {
        AppState {
            default_workspace,
            config_path: find_config(),
            runs: Arc::default(),
        }
    }

    /// `$WHITTLE_WORKSPACE` when set and non-empty, else the repository's demo workspace.
    pub fn from_env() -> Self {
        let from_env = std::env::var_os(WORKSPACE_ENV).filter(|v| !v.is_empty());
        Self::new(
            from_env
                .map(PathBuf::from)
                .unwrap_or_else(bundled_demo_workspace),
        )
    }
}

/// The demo workspace next to the app crate. A packaged app will read this from
/// `whittle.json` instead; until then the source tree is the only place it exists.
pub fn bundled_demo_workspace() -> PathBuf {
    let raw = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../demo/workspace"));
    // Canonical when it exists so the header shows `/repo/demo/workspace`, not `src-tauri/..`.
    std::fs::canonicalize(&raw).unwrap_or(raw)
}
