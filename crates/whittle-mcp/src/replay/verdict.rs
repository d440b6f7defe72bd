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
}

/// The seed's replay result: `{reproduced, reason, step, signature, label, observed}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplayVerdict {
    pub reproduced: bool,
    /// Why not: `no_crash`, `element_not_found`, `action_failed` or `different_crash`.
    pub reason: Option<String>,
    /// The step at which the actions stopped, when one failed.
    pub step: Option<u32>,
    /// The matching crash's fingerprint (null for a degraded-identity match).
    pub signature: Option<String>,
    pub label: Option<String>,
    pub observed: Vec<ObservedCrash>,
}

pub(crate) const NO_CRASH: &str = "no_crash";
pub(crate) const ELEMENT_NOT_FOUND: &str = "element_not_found";
pub(crate) const ACTION_FAILED: &str = "action_failed";
pub(crate) const DIFFERENT_CRASH: &str = "different_crash";
