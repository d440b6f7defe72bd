//! The driver's answer to a [`super::ReplayRequest`].

use serde::{Deserialize, Serialize};

use super::FailureCause;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplayOutcome {
    /// The target signature (or exact degraded identity) was observed.
    Reproduced,
    /// An expected negative: no crash, a different crash, an element not found.
    NotReproduced { reason: MissReason },
    /// An unexpected MCP/device failure. The replay counts as an attempt but is never
    /// a plain "not reproduced"; it latches a runtime-failure stop and ends the search.
    Failed { cause: FailureCause },
    /// The log capture was not running when the replay was about to start. No replay
    /// ran, so no attempt is counted; it latches a capture-failure stop.
    CaptureMissing { cause: FailureCause },
    /// The user cancelled while the replay ran. It counts as an attempt (the device
    /// may have run part of it) and ends the search.
    Cancelled,
}

/// Why a replay did not reproduce the target. Serializes as the seed's strings
/// (`no_crash`, …), which evidence notes and `--json` consumers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum MissReason {
    NoCrash,
    ElementNotFound,
    ActionFailed,
    DifferentCrash,
}

impl MissReason {
    pub fn as_str(self) -> &'static str {
        match self {
            MissReason::NoCrash => "no_crash",
            MissReason::ElementNotFound => "element_not_found",
            MissReason::ActionFailed => "action_failed",
            MissReason::DifferentCrash => "different_crash",
        }
    }
}
