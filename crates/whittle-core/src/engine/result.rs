//! What a finished search claims, with the evidence the claim rests on.

use serde::{Deserialize, Serialize};

use super::{SearchFlags, SearchStop};
use crate::rate::Rate;

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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Flattened: the four flags stay top-level fields of the JSON, in this place.
    #[serde(flatten)]
    pub flags: SearchFlags,
    /// Why the search ended before its algorithm did (cancel, capture or runtime
    /// failure); `None` when it ran to its end.
    pub stop: Option<SearchStop>,
    /// One row per step of `current`; empty when the baseline did not reproduce.
    pub proof: Vec<ProofRow>,
    pub outcome_history: Vec<CandidateHistory>,
    /// Set by a strategy whose negatives are statistical evidence rather than the
    /// seed's proof (`flaky`): such a result is never rated high.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statistical: Option<StatisticalProof>,
}

/// How the `flaky` strategy decided "does not reproduce": a candidate is sampled until
/// its Wilson interval lies below the crash rate's (both at `confidence`), or until
/// `cap` misses. On a flaky crash any number of misses can happen by chance, so this
/// is evidence at `confidence_percent`, not the seed's proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StatisticalProof {
    /// Whole percent (95 = 95 %).
    pub confidence_percent: u32,
    /// Most replays one candidate gets before it is taken as not reproducing.
    pub cap: u32,
}

impl StatisticalProof {
    pub fn confidence(&self) -> f64 {
        f64::from(self.confidence_percent) / 100.0
    }
}

impl SearchResult {
    /// The verdicts recorded for the final candidate itself.
    pub fn final_outcomes(&self) -> &[bool] {
        self.outcome_history
            .iter()
            .find(|entry| entry.candidate == self.current)
            .map_or(&[], |entry| entry.outcomes.as_slice())
    }

    /// The final candidate's rate at `confidence`.
    pub fn final_rate(&self, confidence: f64) -> Rate {
        Rate::of(self.final_outcomes(), confidence)
    }

    /// The crash rate: every verdict of the candidates seen reproducing at least once
    /// (each of them triggers the crash, so each replay of them is one draw of the
    /// rate; candidates never seen reproducing may not trigger it at all).
    pub fn crash_rate(&self, confidence: f64) -> Rate {
        let (hits, total) = reproducing_counts(&self.outcome_history);
        Rate::wilson(hits, total, confidence)
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

/// (hits, verdicts) over the candidates with at least one hit.
pub(crate) fn reproducing_counts(history: &[CandidateHistory]) -> (u32, u32) {
    let mut hits = 0u32;
    let mut total = 0u32;
    for entry in history.iter().filter(|e| e.outcomes.contains(&true)) {
        for &hit in &entry.outcomes {
            total = total.saturating_add(1);
            hits = hits.saturating_add(u32::from(hit));
        }
    }
    (hits, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON a result had when the four flags were its own fields: embedding them
    /// (flattened) must not move, rename or nest one of them.
    const JSON: &str = r#"{"baseline_reproduced":true,"current":[2,5],"attempts":9,"max_replays":12,"fixed_point_reached":true,"final_confirmed":false,"flaky_observed":true,"budget_exhausted":false,"stop":{"kind":"cancelled"},"proof":[{"removed_step":2,"candidate":[5],"outcomes":[false]},{"removed_step":5,"candidate":[2],"outcomes":[false,false]}],"outcome_history":[{"candidate":[2,5],"outcomes":[true,false,true]}]}"#;

    fn result() -> SearchResult {
        SearchResult {
            baseline_reproduced: true,
            current: vec![2, 5],
            attempts: 9,
            max_replays: 12,
            flags: SearchFlags {
                fixed_point_reached: true,
                final_confirmed: false,
                flaky_observed: true,
                budget_exhausted: false,
            },
            stop: Some(SearchStop::Cancelled),
            proof: vec![
                ProofRow {
                    removed_step: 2,
                    candidate: vec![5],
                    outcomes: vec![false],
                },
                ProofRow {
                    removed_step: 5,
                    candidate: vec![2],
                    outcomes: vec![false, false],
                },
            ],
            outcome_history: vec![CandidateHistory {
                candidate: vec![2, 5],
                outcomes: vec![true, false, true],
            }],
            statistical: None,
        }
    }

    #[test]
    fn the_flags_stay_top_level_fields_in_their_place() {
        assert_eq!(serde_json::to_string(&result()).unwrap(), JSON);
        let back: SearchResult = serde_json::from_str(JSON).unwrap();
        assert_eq!(back, result());
    }

    #[test]
    fn a_statistical_proof_follows_the_history() {
        let mut with = result();
        with.statistical = Some(StatisticalProof {
            confidence_percent: 95,
            cap: 8,
        });
        let json = serde_json::to_string(&with).unwrap();
        assert!(json.ends_with(r#","statistical":{"confidence_percent":95,"cap":8}}"#));
        assert_eq!(serde_json::from_str::<SearchResult>(&json).unwrap(), with);
    }
}
