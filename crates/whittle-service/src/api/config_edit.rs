//! Changing `whittle.json` from a front end (the window's settings): the file is read as JSON, changed where a
//! setting lives, checked by the same loader every run uses, and only then written
//! (atomically), so a file Whittle could no longer load never replaces a good one and
//! everything else in it stays as the user wrote it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::atomic::{write_atomic, FileMode};
use crate::config::{Config, ConfigError};

/// Why a setting was not changed; the file is as it was.
#[derive(Debug, thiserror::Error)]
pub enum ConfigEditError {
    #[error("{}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    NotJson {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// The changed file would not load.
    #[error(transparent)]
    Invalid(#[from] ConfigError),
    #[error("{}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the config has no simulator server to switch back to")]
    NoSimulator,
}

impl ConfigEditError {
    /// The stable code; a changed file that would not load keeps the loader's.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigEditError::Read { .. } => "config_unreadable",
            ConfigEditError::NotJson { .. } => "config_not_json",
            ConfigEditError::Invalid(e) => e.code(),
            ConfigEditError::Write { .. } => "config_not_written",
            ConfigEditError::NoSimulator => "no_simulator",
        }
    }
}

pub fn edit_config(
    path: &Path,
    change: impl FnOnce(&mut Value) -> Result<(), ConfigEditError>,
) -> Result<(), ConfigEditError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigEditError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut value: Value =
        serde_json::from_str(&text).map_err(|source| ConfigEditError::NotJson {
            path: path.to_path_buf(),
            source,
        })?;
    change(&mut value)?;
    let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
    Config::parse(&text, path)?;
    write_atomic(path, text.as_bytes(), FileMode::Private).map_err(|source| {
        ConfigEditError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
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
        assert!(matches!(edited, Err(ConfigEditError::NotJson { .. })));
        assert!(!changed, "a file that does not parse is not changed");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
    }
}
