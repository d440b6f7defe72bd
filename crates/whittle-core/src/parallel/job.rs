//! What the scheduler asks a device to replay, and what became of each replay.

use serde::{Deserialize, Serialize};

use crate::engine::{Phase, ReplayOutcome};

/// One replay to run on one device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Unique and increasing over the run; the evidence step and screenshot use it.
    pub attempt: u32,
    pub phase: Phase,
    pub candidate: Vec<u32>,
    /// `false` for the real reducer's own request (the chain's first job when it was
    /// dispatched); `true` for a job dispatched ahead of it on predicted outcomes.
    pub speculative: bool,
    /// How many verdicts the search will have recorded for this candidate before this
    /// replay, if it is used: the same number it would have on one device. A driver
    /// that simulates a flaky app draws by (candidate, occurrence), so the replays the
    /// search uses see the same draws on any number of devices.
    #[serde(default)]
    pub occurrence: u32,
}

/// A finished job: `consumed` when the reducer recorded its outcome,
/// else wasted (ran, verdict unused, not in the budget).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub job: Job,
    pub outcome: ReplayOutcome,
    pub consumed: bool,
}
