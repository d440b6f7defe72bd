//! What a finished search claims, with the evidence the claim rests on.

use serde::{Deserialize, Serialize};

/// Every live verdict of one candidate, in replay order (`true` = reproduced).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CandidateHistory {
    pub candidate: Vec<u32>,
    pub outcomes: Vec<bool>,
}

/// The evidence that one kept step cannot be deleted: `current` without it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProofRow {
    pub removed_step: u32,
    pub candidate: Vec<u32>,
    pub outcomes: Vec<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchResult {
    pub baseline_reproduced: bool,
    /// The shortest candidate that reproduced live (the full path if the baseline failed).
    pub current: Vec<u32>,
    pub attempts: u32,
    pub max_replays: u32,
    pub fixed_point_reached: bool,
    pub final_confirmed: bool,
    pub flaky_observed: bool,
    pub budget_exhausted: bool,
    pub capture_failure: Option<String>,
    pub runtime_failure: Option<String>,
    /// One row per step of `current`; empty when the baseline did not reproduce.
    pub proof: Vec<ProofRow>,
    pub outcome_history: Vec<CandidateHistory>,
}

impl SearchResult {
    /// The verdicts recorded for the final candidate itself.
    pub fn final_outcomes(&self) -> &[bool] {
        self.outcome_history
            .iter()
            .find(|entry| entry.candidate == self.current)
            .map_or(&[], |entry| entry.outcomes.as_slice())
    }

    /// (reproduced, total) over every live replay that produced a verdict.
    pub fn reproduced_of_total(&self) -> (u32, u32) {
        let mut reproduced = 0u32;
        let mut total = 0u32;
        for outcome in self.outcome_history.iter().flat_map(|e| &e.outcomes) {
            total = total.saturating_add(1);
            if *outcome {
                reproduced = reproduced.saturating_add(1);
            }
        }
        (reproduced, total)
    }
}
