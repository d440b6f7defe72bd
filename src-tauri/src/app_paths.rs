//! The OS folder the app keeps its logs in. Its config and data folders are the API's
//! (`api::find_config`, `api::user_data_dir`), shared with the `whittle` command.

use std::path::PathBuf;

const APP_DIR: &str = "whittle";

/// `$XDG_STATE_HOME/whittle/logs` (`~/.local/state/whittle/logs`), where the XDG spec
/// puts logs; the data folder where an OS has no state folder.
pub fn log_dir() -> Option<PathBuf> {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join(APP_DIR).join("logs"))
}
