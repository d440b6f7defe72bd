//! The driver's answer to a [`super::ReplayRequest`].

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The target signature (or exact degraded identity) was observed.
    Reproduced,
    /// An expected negative: no crash, a different crash, an element not found.
    NotReproduced { reason: String },
    /// An unexpected MCP/device failure. The replay counts as an attempt but is never
    /// a plain "not reproduced"; it latches `runtime_failure` and ends the search.
    RuntimeError { error: String },
    /// The log capture was not running when the replay was about to start. No replay
    /// ran, so no attempt is counted; it latches `capture_failure` and ends the search.
    CaptureMissing { reason: String },
}
