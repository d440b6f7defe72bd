use serde::{Deserialize, Serialize};
use whittle_core::model::CrashKind;

/// One crash drained after a replay, as compared against the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ObservedCrash {
    pub fingerprint: Option<String>,
    pub label: String,
    pub kind: CrashKind,
    pub process: String,
    /// Whether this crash is the target (the one the run minimizes).
    #[serde(default)]
    pub is_target: bool,
    /// The first lines of its stack, with anything that looks private withheld
    /// (see `stack_excerpt`). Empty in evidence written before it was recorded.
    #[serde(default)]
    pub stack: Vec<String>,
}

pub use whittle_core::engine::MissReason;

/// The seed's replay result: `{reproduced, reason, step, signature, label, observed}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplayVerdict {
    pub reproduced: bool,
    /// Why not, when it did not.
    pub reason: Option<MissReason>,
    /// The step at which the actions stopped, when one failed.
    pub step: Option<u32>,
    /// The matching crash's fingerprint (null for a degraded-identity match).
    pub signature: Option<String>,
    pub label: Option<String>,
    pub observed: Vec<ObservedCrash>,
}

impl ReplayVerdict {
    /// The target crash was seen: `signature` is its fingerprint when the identity is
    /// reliable enough to name it, `label` what the analyzer called it.
    pub fn reproduced(
        signature: Option<String>,
        label: Option<String>,
        observed: Vec<ObservedCrash>,
    ) -> ReplayVerdict {
        ReplayVerdict {
            reproduced: true,
            reason: None,
            step: None,
            signature,
            label,
            observed,
        }
    }

    /// The target crash was not seen, and why (`step` when an action stopped the replay).
    pub fn missed(
        reason: MissReason,
        step: Option<u32>,
        observed: Vec<ObservedCrash>,
    ) -> ReplayVerdict {
        ReplayVerdict {
            reproduced: false,
            reason: Some(reason),
            step,
            signature: None,
            label: None,
            observed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_serialize_as_the_seeds_strings() {
        for reason in [
            MissReason::NoCrash,
            MissReason::ElementNotFound,
            MissReason::ActionFailed,
            MissReason::DifferentCrash,
        ] {
            assert_eq!(
                serde_json::to_value(reason).unwrap(),
                serde_json::json!(reason.as_str())
            );
        }
    }

    #[test]
    fn evidence_written_before_stacks_were_recorded_still_reads() {
        let old = r#"{"reproduced":false,"reason":"different_crash","step":null,"signature":null,"label":null,
            "observed":[{"fingerprint":"aaaaaaaaaaaa","label":"X","kind":"java","process":"p"}]}"#;
        let v: ReplayVerdict = serde_json::from_str(old).unwrap();
        assert_eq!(v.reason, Some(MissReason::DifferentCrash));
        assert!(v.observed[0].stack.is_empty() && !v.observed[0].is_target);
    }
}
