use serde::{Deserialize, Serialize};

use crate::mask::MaskStyle;

/// How screenshots are masked before they are archived (SPEC §5).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MaskingConfig {
    /// Regexes over `resource_id`; a matching element is always masked.
    pub id_patterns: Vec<String>,
    pub style: MaskStyle,
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
