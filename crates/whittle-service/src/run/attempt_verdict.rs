//! What became of one attempt, as every reader tells it: the window's live row, a
//! reopened run, a resume's backfill and the CLI. One tagged enum, so a front end switches
//! on `kind` instead of pairing a `reproduced` flag with an optional reason, and a device
//! failure keeps its typed cause (worded by each catalogue) rather than a sentence.
//! Derived from the journal's `AttemptOutcome` by [`AttemptVerdict::of`] only.

use serde::Serialize;
use whittle_core::engine::{FailureCause, MissReason};

use super::journal::AttemptOutcome;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttemptVerdict {
    /// The target crash was seen: `signature` is its fingerprint (null for a match on a
    /// degraded identity), `label` what the analyzer called it.
    Reproduced {
        signature: Option<String>,
        label: Option<String>,
    },
    /// The target crash was not seen; `step` is where an action stopped the replay.
    NotReproduced {
        reason: MissReason,
        step: Option<u32>,
    },
    /// The user's Cancel stopped it: not a verdict, not an error.
    Cancelled,
    /// A guess the search no longer needed, stopped halfway to free its device.
    Unneeded,
    /// The infrastructure failed: no verdict (a resume runs it again).
    Failed { cause: FailureCause },
}

impl AttemptVerdict {
    pub fn of(outcome: &AttemptOutcome) -> AttemptVerdict {
        match outcome {
            AttemptOutcome::Replayed { verdict } if verdict.reproduced => {
                AttemptVerdict::Reproduced {
                    signature: verdict.signature.clone(),
                    label: verdict.label.clone(),
                }
            }
            AttemptOutcome::Replayed { verdict } => AttemptVerdict::NotReproduced {
                // A miss always has its reason; a record without one saw no crash.
                reason: verdict.reason.unwrap_or(MissReason::NoCrash),
                step: verdict.step,
            },
            AttemptOutcome::Cancelled => AttemptVerdict::Cancelled,
            AttemptOutcome::Unneeded => AttemptVerdict::Unneeded,
            AttemptOutcome::Failed { cause } => AttemptVerdict::Failed {
                cause: cause.clone(),
            },
        }
    }

    pub fn reproduced(&self) -> bool {
        matches!(self, AttemptVerdict::Reproduced { .. })
    }

    /// A replay that ran to a verdict (a resume keeps it; a cancel or failure reruns).
    pub fn is_verdict(&self) -> bool {
        matches!(
            self,
            AttemptVerdict::Reproduced { .. } | AttemptVerdict::NotReproduced { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::ReplayVerdict;

    #[test]
    fn each_outcome_has_its_own_kind() {
        let hit = AttemptOutcome::Replayed {
            verdict: ReplayVerdict::reproduced(Some("sig".into()), Some("NPE".into()), vec![]),
        };
        let miss = AttemptOutcome::Replayed {
            verdict: ReplayVerdict::missed(MissReason::ElementNotFound, Some(4), vec![]),
        };
        let failed = AttemptOutcome::Failed {
            cause: FailureCause::Drain {
                detail: "logcat gone".into(),
            },
        };
        let kinds: Vec<serde_json::Value> = [
            hit,
            miss,
            AttemptOutcome::Cancelled,
            AttemptOutcome::Unneeded,
            failed,
        ]
        .iter()
        .map(|o| serde_json::to_value(AttemptVerdict::of(o)).unwrap())
        .collect();
        assert_eq!(
            kinds,
            [
                serde_json::json!({"kind": "reproduced", "signature": "sig", "label": "NPE"}),
                serde_json::json!({"kind": "not_reproduced", "reason": "element_not_found", "step": 4}),
                serde_json::json!({"kind": "cancelled"}),
                serde_json::json!({"kind": "unneeded"}),
                serde_json::json!({"kind": "failed", "cause": {"kind": "drain", "detail": "logcat gone"}}),
            ]
        );
    }
}
