//! What a round asks the driver to replay, and what became of each replay.

use serde::{Deserialize, Serialize};

use crate::engine::{Phase, ReplayOutcome};

/// One replay to run on one device in the current round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Unique and increasing over the run; the evidence step and screenshot use it.
    pub attempt: u32,
    pub phase: Phase,
    pub candidate: Vec<u32>,
    /// `false` only for the round's first job: the request the reducer actually made.
    pub speculative: bool,
}

/// A finished job of the last round: `consumed` when the reducer recorded its outcome,
/// else wasted (ran and charged against the budget, verdict unused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub job: Job,
    pub outcome: ReplayOutcome,
    pub consumed: bool,
}
