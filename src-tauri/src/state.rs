//! What the app keeps between commands.

use std::path::PathBuf;
use std::sync::Arc;

use whittle_service::api::{
    find_config, user_data_dir, ConfigChoice, ConfigSearch, OwnRuns, WorkspaceWatch, OWN_RUNS_FILE,
};

use crate::app_config::configured_workspace;
use crate::queue_control::QueueSlot;
use crate::runs::WindowRuns;

/// Overrides the workspace the app opens on (the e2e test and `scripts/run-demo` use it).
pub const WORKSPACE_ENV: &str = "WHITTLE_WORKSPACE";

#[derive(Clone)]
pub struct AppState {
    pub default_workspace: PathBuf,
    /// The `whittle.json` runs use; `None` leaves the app a browser until one exists.
    pub config_path: Option<PathBuf>,
    /// How the config was found or made at start (the first screen reports a first run).
    pub setup: ConfigChoice,
    /// Where the rolling log files go; `None` when the OS has no such folder.
    pub log_dir: Option<PathBuf>,
    pub runs: Arc<WindowRuns>,
    /// The *Minimize all* queue (it holds `runs`' slot while it works).
    pub queue: Arc<QueueSlot>,
    /// Follows the open workspace's folder.
    pub watch: Arc<WorkspaceWatch>,
}

impl AppState {
    pub fn new(default_workspace: PathBuf) -> Self {
        Self::with_setup(default_workspace, window_config())
    }

    pub fn with_setup(default_workspace: PathBuf, setup: ConfigChoice) -> Self {
        AppState {
            default_workspace,
            config_path: setup.path.clone(),
            setup,
            log_dir: None,
            runs: Arc::default(),
            queue: Arc::default(),
            watch: Arc::default(),
        }
    }

    /// `$WHITTLE_WORKSPACE` when set and non-empty, else the config's workspace, else
    /// the source tree's demo workspace.
    pub fn from_env() -> Self {
        let setup = window_config();
        let workspace = std::env::var_os(WORKSPACE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| setup.path.as_deref().and_then(configured_workspace))
            .unwrap_or_else(bundled_demo_workspace);
        let mut state = Self::with_setup(workspace, setup);
        // The app's own runs are remembered across restarts, so one cut off with the
        // window is offered for resuming at the next start.
        let own = OwnRuns::at(user_data_dir().map(|d| d.join(OWN_RUNS_FILE)));
        state.runs = Arc::new(WindowRuns::with_own_runs(own));
        state
    }
}

/// The window's config: the terminal's search, and on an installed app's first start a
/// config for its bundled demo.
fn window_config() -> ConfigChoice {
    find_config(ConfigSearch {
        explicit: None,
        first_start: true,
    })
}

/// The demo workspace of the source tree (a development build with no config).
pub fn bundled_demo_workspace() -> PathBuf {
    let raw = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../demo/workspace"));
    // Canonical when it exists so the header shows `/repo/demo/workspace`, not `src-tauri/..`.
    std::fs::canonicalize(&raw).unwrap_or(raw)
}
