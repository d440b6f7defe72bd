//! Changing `whittle.json` from the window: the file is read as JSON, changed where a
//! setting lives, checked by the same loader every run uses, and only then written
//! (atomically), so a file Whittle could no longer load never replaces a good one and
//! everything else in it stays as the user wrote it.

use std::path::Path;

use serde_json::Value;
use whittle_service::config::Config;

use crate::error::AppError;

pub fn edit_config(
    path: &Path,
    change: impl FnOnce(&mut Value) -> Result<(), AppError>,
) -> Result<(), AppError> {
    let failed = |reason: String| AppError::ConfigUnavailable { reason };
    let text =
        std::fs::read_to_string(path).map_err(|e| failed(format!("{}: {e}", path.display())))?;
    let mut value: Value =
        serde_json::from_str(&text).map_err(|e| failed(format!("{}: {e}", path.display())))?;
    change(&mut value)?;
    let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
    Config::parse(&text, path).map_err(|e| failed(e.to_string()))?;
    whittle_service::atomic::write_atomic(
        path,
        text.as_bytes(),
        whittle_service::atomic::FileMode::Private,
    )
    .map_err(|e| failed(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, "{ not json").unwrap();
        let mut changed = false;
        let edited = edit_config(&file, |_| {
            changed = true;
            Ok(())
        });
        assert!(matches!(edited, Err(AppError::ConfigUnavailable { .. })));
        assert!(!changed, "a file that does not parse is not changed");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
    }
}
