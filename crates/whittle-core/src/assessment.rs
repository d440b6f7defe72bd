//! Phase 5 (docs/design.md §13) steps 1 and 3: what a finished search may claim, and why not more.

use serde::{Deserialize, Serialize};

use crate::engine::{SearchResult, NEGATIVE_PROOF_RUNS};
use crate::model::Confidence;
use crate::rate::Rate;
use crate::run_end::RunEnd;

/// How trustworthy the "same crash" comparison was (Phase 0 (docs/design.md §13) step 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct IdentityQuality {
    pub fingerprint_reliable: bool,
    pub signature_degraded: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Assessment {
    /// How the run ended, from the search and the confidence below.
    pub end: RunEnd,
    /// `None` when the baseline did not reproduce: there is nothing to rate.
    pub confidence: Option<Confidence>,
    /// The seed's `minimized_complete` (= `fixed_point_reached` of a live result).
    pub minimized_complete: bool,
    /// `fixed_point_reached && final_confirmed`: the only case worded "minimal, converged".
    pub converged: bool,
    /// `baseline.reproduced` and nothing stopped the search (`end.may_write_back()`).
    pub write_back_allowed: bool,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    BaselineNotReproduced,
    BudgetExhausted {
        max_replays: u32,
    },
    Flaky {
        reproduced: u32,
        total: u32,
    },
    SignatureDegraded,
    /// The `flaky` strategy's result: its misses are evidence at a confidence, not the
    /// seed's proof. `unseparated`: kept steps whose deletion hit the cap before its
    /// interval fell below the crash rate's.
    Statistical {
        confidence_percent: u32,
        cap: u32,
        unseparated: Vec<u32>,
    },
}

pub fn assess(result: &SearchResult, identity: IdentityQuality) -> Assessment {
    let infrastructure_ok = result.stop.is_none();
    let identity_ok = identity.fingerprint_reliable && !identity.signature_degraded;
    let converged = result.baseline_reproduced
        && result.flags.fixed_point_reached
        && result.flags.final_confirmed;
    let every_deletion_disproved = result.proof.iter().all(|row| {
        row.outcomes.len() >= NEGATIVE_PROOF_RUNS && row.outcomes.iter().all(|&hit| !hit)
    });
    let high = identity_ok
        && converged
        && infrastructure_ok
        && !result.flags.budget_exhausted
        && !result.flags.flaky_observed
        && every_deletion_disproved
        && result.statistical.is_none();
    let confidence = match (result.baseline_reproduced, high) {
        (false, _) => None,
        (true, true) => Some(Confidence::High),
        (true, false) => Some(Confidence::Medium),
    };
    Assessment {
        end: RunEnd::of(result, confidence),
        confidence,
        minimized_complete: result.baseline_reproduced && result.flags.fixed_point_reached,
        converged,
        write_back_allowed: result.baseline_reproduced && infrastructure_ok,
        warnings: warnings(result, identity),
    }
}

fn warnings(result: &SearchResult, identity: IdentityQuality) -> Vec<Warning> {
    let mut warnings = Vec::new();
    // A baseline cut short by a stop is reported as that stop (the run's end).
    if !result.baseline_reproduced && result.stop.is_none() {
        warnings.push(Warning::BaselineNotReproduced);
    }
    if result.flags.budget_exhausted {
        warnings.push(Warning::BudgetExhausted {
            max_replays: result.max_replays,
        });
    }
    if result.flags.flaky_observed {
        let (reproduced, total) = result.reproduced_of_total();
        warnings.push(Warning::Flaky { reproduced, total });
    }
    if identity.signature_degraded || !identity.fingerprint_reliable {
        warnings.push(Warning::SignatureDegraded);
    }
    if let (Some(proof), true) = (result.statistical, result.baseline_reproduced) {
        warnings.push(Warning::Statistical {
            confidence_percent: proof.confidence_percent,
            cap: proof.cap,
            unseparated: unseparated_steps(result, proof.confidence()),
        });
    }
    warnings
}

/// Kept steps whose deletion's interval does not lie below the crash rate's.
pub fn unseparated_steps(result: &SearchResult, confidence: f64) -> Vec<u32> {
    let crash_rate = result.crash_rate(confidence);
    result
        .proof
        .iter()
        .filter(|row| !Rate::of(&row.outcomes, confidence).separated_below(&crash_rate))
        .map(|row| row.removed_step)
        .collect()
}

/// The path to write back: `repro_path` items that are launch setup or kept steps, in
/// original order (the launch is replayed implicitly and keeps its original index).
pub fn minimal_path(repro_path: &[u32], setup: &[u32], current: &[u32]) -> Vec<u32> {
    repro_path
        .iter()
        .copied()
        .filter(|step| setup.contains(step) || current.contains(step))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_path_keeps_setup_and_original_order() {
        assert_eq!(
            minimal_path(&[1, 2, 3, 4, 5, 6, 7, 8], &[1], &[7]),
            vec![1, 7]
        );
        assert_eq!(minimal_path(&[1, 3, 7, 12], &[1], &[12, 3]), vec![1, 3, 12]);
        assert_eq!(minimal_path(&[4, 5], &[], &[]), Vec::<u32>::new());
    }
}
