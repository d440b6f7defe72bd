//! Which `whittle.json` the app runs with. The session browser needs none; a minimize
//! run does, because it names the MCP servers of the five roles.

use std::path::{Path, PathBuf};

use whittle_mcp::config::Config;

use crate::error::AppError;

/// Points the app at a config file (the e2e test and packaged builds use it).
pub const CONFIG_ENV: &str = "WHITTLE_CONFIG";

/// `$WHITTLE_CONFIG` when set, else the source tree's demo config (the simulated
/// device), else `~/.config/whittle/whittle.json`; `None` when none of them exists.
pub fn find_config() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/whittle.json");
    let user = std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".config/whittle/whittle.json"));
    [Some(demo), user]
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
}

/// The config for a run in `workspace` (the one open in the window).
pub fn config_for(path: Option<&Path>, workspace: &Path) -> Result<Config, AppError> {
    let path = path.ok_or_else(|| AppError::ConfigUnavailable {
        reason: format!(
            "no whittle.json was found; set {CONFIG_ENV} to its path or create ~/.config/whittle/whittle.json"
        ),
    })?;
    let config = Config::load(path).map_err(|e| AppError::ConfigUnavailable {
        reason: e.to_string(),
    })?;
    Ok(config.for_workspace(workspace))
}
