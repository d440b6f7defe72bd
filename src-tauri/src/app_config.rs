//! The config a window's run uses. The session browser needs none; a minimize run does,
//! because it names the MCP servers of the five roles. Which file that is, the API finds
//! (`api::find_config`, the same search as the terminal's).

use std::path::{Path, PathBuf};

use whittle_service::api::{expected_config_file, Config, CONFIG_ENV};

use crate::error::AppError;
use crate::error_cause::ConfigCause;

/// No `whittle.json` to run with or to change: where Whittle looks for one.
pub fn no_config() -> AppError {
    AppError::ConfigUnavailable {
        cause: ConfigCause::NoConfig {
            env: CONFIG_ENV.to_owned(),
            expected: expected_config_file().display().to_string(),
        },
    }
}

/// The workspace a config names, when it loads.
pub fn configured_workspace(path: &Path) -> Option<PathBuf> {
    Config::load(path).ok().map(|c| c.workspace)
}

/// The config for a run in `workspace` (the one open in the window).
pub fn config_for(path: Option<&Path>, workspace: &Path) -> Result<Config, AppError> {
    let path = path.ok_or_else(no_config)?;
    let config = Config::load(path).map_err(|e| AppError::config(&e))?;
    Ok(config.for_workspace(workspace))
}
