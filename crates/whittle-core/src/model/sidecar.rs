use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::signature::FINGERPRINT_VERSION;

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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MinimizedEntry {
    pub minimized_repro_path: Vec<u32>,
    pub minimized_attempts: u32,
    pub minimized_confidence: Confidence,
    pub minimized_complete: bool,
    pub target_fingerprint: Option<String>,
    pub evidence_session: String,
    pub approved_at: String,
    pub engine_version: String,
    /// Which normalization computed `target_fingerprint` (`signature::FINGERPRINT_VERSION`
    /// of the Whittle that approved it). Entries written before this field existed came
    /// from version 1, so that is what a missing field means.
    #[serde(default = "legacy_fingerprint_version")]
    pub fingerprint_version: u32,
}

/// The fingerprint version of sidecar entries written before the field was recorded.
pub const LEGACY_FINGERPRINT_VERSION: u32 = 1;

fn legacy_fingerprint_version() -> u32 {
    LEGACY_FINGERPRINT_VERSION
}

/// How an entry's fingerprint relates to the fingerprints this Whittle computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FingerprintAge {
    /// Same normalization: a re-minimize of the same crash compares equal.
    Current,
    /// No fingerprint was recorded (the target was identified without one).
    NoFingerprint,
    /// Computed by an older analyzer: the same crash may fingerprint differently now.
    Older { recorded: u32, current: u32 },
    /// Computed by a newer Whittle than this one.
    Newer { recorded: u32, current: u32 },
}

impl std::fmt::Display for FingerprintAge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FingerprintAge::Current | FingerprintAge::NoFingerprint => Ok(()),
            FingerprintAge::Older { recorded, current } => write!(
                f,
                "its fingerprint came from an older analyzer (fingerprint version {recorded}, \
                 this Whittle computes version {current}), so a re-minimize of the same crash \
                 may not compare equal"
            ),
            FingerprintAge::Newer { recorded, current } => write!(
                f,
                "its fingerprint came from a newer analyzer (fingerprint version {recorded}, \
                 this Whittle computes version {current}), so a re-minimize of the same crash \
                 may not compare equal"
            ),
        }
    }
}

impl MinimizedEntry {
    /// Whether this entry's fingerprint is comparable with the ones computed now.
    pub fn fingerprint_age(&self) -> FingerprintAge {
        let (recorded, current) = (self.fingerprint_version, FINGERPRINT_VERSION);
        match (&self.target_fingerprint, recorded.cmp(&current)) {
            (None, _) => FingerprintAge::NoFingerprint,
            (Some(_), std::cmp::Ordering::Equal) => FingerprintAge::Current,
            (Some(_), std::cmp::Ordering::Less) => FingerprintAge::Older { recorded, current },
            (Some(_), std::cmp::Ordering::Greater) => FingerprintAge::Newer { recorded, current },
        }
    }
}

/// How sure a minimized result is: `low` only for a static suggestion (no live replay).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema-1 sidecar as Whittle wrote it before fingerprint versions were recorded.
    const WRITTEN_BY_V1: &str = r#"{
  "schema": 1,
  "crashes": {
    "c1": {
      "minimized_repro_path": [1, 10, 11, 12],
      "minimized_attempts": 9,
      "minimized_confidence": "high",
      "minimized_complete": true,
      "target_fingerprint": "a3f2b89c1d0e",
      "evidence_session": "2026-05-14_170000_minimize-checkout-npe",
      "approved_at": "2026-05-14T17:05:00Z",
      "engine_version": "0.1.0"
    }
  }
}"#;

    #[test]
    fn an_entry_from_before_the_field_loads_as_version_1_and_says_so() {
        let sidecar: Sidecar = serde_json::from_str(WRITTEN_BY_V1).unwrap();
        assert_eq!(sidecar.schema, SIDECAR_SCHEMA);
        let entry = &sidecar.crashes["c1"];
        assert_eq!(entry.fingerprint_version, LEGACY_FINGERPRINT_VERSION);
        let age = entry.fingerprint_age();
        assert_eq!(
            age,
            FingerprintAge::Older {
                recorded: 1,
                current: FINGERPRINT_VERSION
            }
        );
        assert!(age.to_string().contains("older analyzer"), "{age}");
    }

    #[test]
    fn a_new_entry_records_and_keeps_its_version() {
        let mut sidecar: Sidecar = serde_json::from_str(WRITTEN_BY_V1).unwrap();
        let entry = sidecar.crashes.get_mut("c1").unwrap();
        entry.fingerprint_version = FINGERPRINT_VERSION;
        let text = serde_json::to_string(&sidecar).unwrap();
        assert!(text.contains(&format!("\"fingerprint_version\":{FINGERPRINT_VERSION}")));
        let back: Sidecar = serde_json::from_str(&text).unwrap();
        assert_eq!(back, sidecar);
        assert_eq!(
            back.crashes["c1"].fingerprint_age(),
            FingerprintAge::Current
        );
        assert_eq!(FingerprintAge::Current.to_string(), "");
    }

    #[test]
    fn versions_only_matter_when_there_is_a_fingerprint() {
        let mut sidecar: Sidecar = serde_json::from_str(WRITTEN_BY_V1).unwrap();
        let entry = sidecar.crashes.get_mut("c1").unwrap();
        entry.target_fingerprint = None;
        assert_eq!(entry.fingerprint_age(), FingerprintAge::NoFingerprint);
        entry.target_fingerprint = Some("a3f2b89c1d0e".into());
        entry.fingerprint_version = FINGERPRINT_VERSION + 1;
        assert!(matches!(
            entry.fingerprint_age(),
            FingerprintAge::Newer { .. }
        ));
    }
}
