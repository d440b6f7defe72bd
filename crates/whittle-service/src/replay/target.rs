use serde::{Deserialize, Serialize};
use whittle_contract::analyzer::Signature;
use whittle_core::model::CrashKind;

/// The exact identity used when no stable fingerprint exists (Phase 0 (docs/design.md §13) step 5):
/// kind, process, analyzer label AND the normalized top frames, all equal. Never
/// kind + process alone: another ANR in the same process is a different bug.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DegradedIdentity {
    pub kind: CrashKind,
    pub process: String,
    pub label: String,
    pub top_frames: Vec<String>,
}

impl DegradedIdentity {
    /// `None` when a part is missing: an identity without frames or label would match
    /// unrelated crashes of the same process.
    pub fn build(
        kind: CrashKind,
        process: &str,
        signature: &Signature,
    ) -> Option<DegradedIdentity> {
        if process.trim().is_empty()
            || signature.label.trim().is_empty()
            || signature.top_frames.is_empty()
        {
            return None;
        }
        Some(DegradedIdentity {
            kind,
            process: process.to_string(),
            label: signature.label.clone(),
            top_frames: signature.top_frames.clone(),
        })
    }
}

/// What "the same crash" means for one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TargetIdentity {
    /// `fingerprint_reliable`: the analyzer's fingerprint was non-null and stable.
    Fingerprint { fingerprint: String },
    /// `signature_degraded`: exact tuple equality.
    Degraded { identity: DegradedIdentity },
}

impl TargetIdentity {
    /// Whether an observed crash (its log kind/process and its signature) is the target.
    pub fn matches(&self, kind: CrashKind, process: &str, signature: &Signature) -> bool {
        match self {
            TargetIdentity::Fingerprint { fingerprint } => {
                signature.fingerprint.as_deref() == Some(fingerprint.as_str())
            }
            TargetIdentity::Degraded { identity } => {
                identity.kind == kind
                    && identity.process == process
                    && identity.label == signature.label
                    && identity.top_frames == signature.top_frames
            }
        }
    }

    pub fn fingerprint(&self) -> Option<&str> {
        match self {
            TargetIdentity::Fingerprint { fingerprint } => Some(fingerprint),
            TargetIdentity::Degraded { .. } => None,
        }
    }

    pub fn is_reliable(&self) -> bool {
        matches!(self, TargetIdentity::Fingerprint { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(fp: Option<&str>, label: &str, frames: &[&str]) -> Signature {
        Signature {
            fingerprint: fp.map(str::to_string),
            label: label.to_string(),
            kind: CrashKind::Anr,
            top_frames: frames.iter().map(|f| f.to_string()).collect(),
            stable: false,
            canonical_key: None,
        }
    }

    #[test]
    fn fingerprint_target_needs_the_same_fingerprint() {
        let t = TargetIdentity::Fingerprint {
            fingerprint: "a3f2b89c1d0e".into(),
        };
        assert!(t.matches(CrashKind::Java, "p", &sig(Some("a3f2b89c1d0e"), "x", &[])));
        assert!(!t.matches(CrashKind::Java, "p", &sig(Some("000000000000"), "x", &[])));
        assert!(!t.matches(CrashKind::Java, "p", &sig(None, "x", &[])));
    }

    #[test]
    fn degraded_identity_is_never_kind_and_process_alone() {
        let target = sig(None, "ANR @ Main.run", &["a.B.c", "a.B.d"]);
        let identity = DegradedIdentity::build(CrashKind::Anr, "com.x", &target).unwrap();
        let t = TargetIdentity::Degraded { identity };
        assert!(t.matches(CrashKind::Anr, "com.x", &target));
        // Same kind and process, other frames or label: a different bug.
        assert!(!t.matches(
            CrashKind::Anr,
            "com.x",
            &sig(None, "ANR @ Main.run", &["a.B.c"])
        ));
        assert!(!t.matches(
            CrashKind::Anr,
            "com.x",
            &sig(None, "ANR @ Other.run", &["a.B.c", "a.B.d"])
        ));
        assert!(!t.matches(CrashKind::Native, "com.x", &target));
        assert!(!t.matches(CrashKind::Anr, "com.y", &target));
    }

    #[test]
    fn degraded_identity_needs_every_part() {
        assert!(DegradedIdentity::build(CrashKind::Anr, "com.x", &sig(None, "L", &[])).is_none());
        assert!(DegradedIdentity::build(CrashKind::Anr, "", &sig(None, "L", &["f"])).is_none());
        assert!(
            DegradedIdentity::build(CrashKind::Anr, "com.x", &sig(None, " ", &["f"])).is_none()
        );
    }
}
