//! The OS folders the app keeps its own files in. The config folder is shared with the
//! `whittle` command (`<config>/whittle/whittle.json`), so both use the same setup.

use std::path::PathBuf;

const APP_DIR: &str = "whittle";

/// `$XDG_CONFIG_HOME/whittle` (`~/.config/whittle` on Linux).
pub fn config_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join(APP_DIR))
}

/// `$XDG_DATA_HOME/whittle` (`~/.local/share/whittle`): the demo's writable copy.
pub fn data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join(APP_DIR))
}

/// `$XDG_STATE_HOME/whittle/logs` (`~/.local/state/whittle/logs`), where the XDG spec
/// puts logs; the data folder where an OS has no state folder.
pub fn log_dir() -> Option<PathBuf> {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join(APP_DIR).join("logs"))
}
