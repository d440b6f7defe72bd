use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub const SIDECAR_FILE: &str = "crashes.minimized.json";
pub const SIDECAR_SCHEMA: u32 = 1;

/// `crashes.minimized.json`: written only on the user's approval, one entry per crash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    pub schema: u32,
    #[serde(default)]
    pub crashes: BTreeMap<String, MinimizedEntry>,
}

impl Default for Sidecar {
    fn default() -> Self {
        Sidecar {
            schema: SIDECAR_SCHEMA,
            crashes: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MinimizedEntry {
    pub minimized_repro_path: Vec<u32>,
    pub minimized_attempts: u32,
    pub minimized_confidence: Confidence,
    pub minimized_complete: bool,
    pub target_fingerprint: Option<String>,
    pub evidence_session: String,
    pub approved_at: String,
    pub engine_version: String,
}

/// The seed's Phase 5 confidence: `low` only for a static suggestion (no live replay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}
