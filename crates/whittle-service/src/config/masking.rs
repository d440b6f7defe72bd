use serde::{Deserialize, Serialize};

use super::MaskStyle;

/// How screenshots are masked before they are archived (`docs/SECURITY.md` §4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MaskingConfig {
    /// Regexes over `resource_id`; a matching element is always masked.
    pub id_patterns: Vec<String>,
    pub style: MaskStyle,
    /// How much of a screen is treated as private.
    pub level: PrivacyLevel,
}

impl MaskingConfig {
    /// Compiles `id_patterns`; `Config::load` has already rejected invalid ones.
    pub fn compile_id_patterns(&self) -> Result<Vec<regex::Regex>, regex::Error> {
        self.id_patterns
            .iter()
            .map(|p| regex::Regex::new(p))
            .collect()
    }
}

/// `"masking": {"level": …}` in `whittle.json`. Both levels fail closed (a screenshot
/// the hierarchy does not account for is omitted, views it cannot see into are masked
/// whole); they differ in what counts as private on a screen that is accounted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum PrivacyLevel {
    /// Password fields, focused inputs, configured ids and text that looks private
    /// (e-mail, phone, card, token, one-time code).
    #[default]
    Standard,
    /// Everything `Standard` masks, plus every node that bears text (text, description,
    /// any input field) and every image, as session-replay products mask by default.
    Strict,
}

impl PrivacyLevel {
    /// Every level, mildest first (for a settings screen).
    pub const ALL: [PrivacyLevel; 2] = [PrivacyLevel::Standard, PrivacyLevel::Strict];

    /// The name used in `whittle.json`, the evidence and the export manifest.
    pub fn as_str(self) -> &'static str {
        match self {
            PrivacyLevel::Standard => "standard",
            PrivacyLevel::Strict => "strict",
        }
    }
}

impl std::fmt::Display for PrivacyLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_defaults_to_standard_and_reads_both_names() {
        let cfg: MaskingConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(cfg.level, PrivacyLevel::Standard);
        let cfg: MaskingConfig = serde_json::from_str(r#"{"level": "strict"}"#).unwrap();
        assert_eq!(cfg.level, PrivacyLevel::Strict);
        for level in PrivacyLevel::ALL {
            let json = serde_json::to_value(level).unwrap();
            assert_eq!(json, serde_json::json!(level.as_str()));
            assert_eq!(level.to_string(), level.as_str());
        }
        assert!(serde_json::from_str::<MaskingConfig>(r#"{"level": "paranoid"}"#).is_err());
        assert!(serde_json::from_str::<MaskingConfig>(r#"{"levle": "strict"}"#).is_err());
    }
}
