use serde::{Deserialize, Serialize};

use super::{CandidateHistory, Phase};

/// The engine's state as the UI shows it while a run is live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EngineSnapshot {
    /// Phase of the pending replay, or of the last one once the search is done.
    pub phase: Phase,
    pub current: Vec<u32>,
    /// The candidate of the pending replay, if one is pending.
    pub candidate: Option<Vec<u32>>,
    pub attempts: u32,
    pub max_replays: u32,
    pub flaky_observed: bool,
    pub budget_exhausted: bool,
    pub outcome_history: Vec<CandidateHistory>,
}
