//! The config a window's run uses. The session browser needs none; a minimize run does,
//! because it names the MCP servers of the five roles. Which file that is, the API finds
//! (`api::find_config`, the same search as the terminal's).

use std::path::{Path, PathBuf};

use whittle_service::api::{expected_config_file, Config, CONFIG_ENV};

use crate::error::AppError;

/// The workspace a config names, when it loads.
pub fn configured_workspace(path: &Path) -> Option<PathBuf> {
    Config::load(path).ok().map(|c| c.workspace)
}

/// The config for a run in `workspace` (the one open in the window).
pub fn config_for(path: Option<&Path>, workspace: &Path) -> Result<Config, AppError> {
    let path = path.ok_or_else(|| AppError::ConfigUnavailable {
        reason: format!(
            "no whittle.json was found; set {CONFIG_ENV} to its path or create {}",
            expected_config_file().display()
        ),
    })?;
    let config = Config::load(path).map_err(|e| AppError::ConfigUnavailable {
        reason: e.to_string(),
    })?;
    Ok(config.for_workspace(workspace))
}
