//! The screenshot privacy level (`"masking": {"level": …}` in `whittle.json`), as the
//! window's Settings show and change it. A run reads the config when it starts, so a
//! change applies from the next run on; evidence already archived keeps the level it was
//! masked at (recorded in its `.masks.json` and in an export's manifest).

use std::path::Path;

use super::config_edit::{edit_config, ConfigEditError};
use crate::config::{Config, PrivacyLevel};

/// The level runs use now; `None` when there is no config file that loads.
pub fn privacy_level(config_path: Option<&Path>) -> Option<PrivacyLevel> {
    config_path
        .and_then(|p| Config::load(p).ok())
        .map(|c| c.masking.level)
}

/// Writes `level` into the config's `masking` block, keeping its other keys.
pub fn set_privacy_level(config_path: &Path, level: PrivacyLevel) -> Result<(), ConfigEditError> {
    edit_config(config_path, |value| {
        if !value["masking"].is_object() {
            value["masking"] = serde_json::json!({});
        }
        value["masking"]["level"] = serde_json::Value::String(level.as_str().into());
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = r#"{ "workspace": "w",
      "mcpServers": { "whittle": { "command": "whittle-servers", "args": ["all", "--workspace", "w"] } },
      "roles": { "report": "whittle", "analyzer": "whittle", "mobile": "whittle", "ui": "whittle", "log": "whittle" },
      "masking": { "id_patterns": ["account_"] } }"#;

    #[test]
    fn the_level_round_trips_and_the_rest_of_the_block_stays() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, DEMO).unwrap();
        assert_eq!(privacy_level(Some(&file)), Some(PrivacyLevel::Standard));
        set_privacy_level(&file, PrivacyLevel::Strict).unwrap();
        assert_eq!(privacy_level(Some(&file)), Some(PrivacyLevel::Strict));
        let config = Config::load(&file).unwrap();
        assert_eq!(config.masking.id_patterns, ["account_"]);
        set_privacy_level(&file, PrivacyLevel::Standard).unwrap();
        assert_eq!(privacy_level(Some(&file)), Some(PrivacyLevel::Standard));
    }

    #[test]
    fn a_config_without_a_masking_block_gets_one() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        let mut value: serde_json::Value = serde_json::from_str(DEMO).unwrap();
        value.as_object_mut().unwrap().remove("masking");
        std::fs::write(&file, value.to_string()).unwrap();
        set_privacy_level(&file, PrivacyLevel::Strict).unwrap();
        assert_eq!(privacy_level(Some(&file)), Some(PrivacyLevel::Strict));
    }

    #[test]
    fn a_broken_file_is_refused_and_has_no_level() {
        // That `set` refuses the file and leaves it alone is `config_edit`'s test.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, "{ not json").unwrap();
        assert!(matches!(
            set_privacy_level(&file, PrivacyLevel::Strict),
            Err(ConfigEditError::NotJson { .. })
        ));
        assert_eq!(privacy_level(Some(&file)), None);
    }
}
