//! The outcome a speculative chain assumes for each request. A wrong guess costs one
//! wasted replay per later job of the round, never a wrong decision.

use std::collections::{HashMap, HashSet};

use crate::engine::{MissReason, Phase, ReplayOutcome, ReplayRequest};

/// Guesses, in this order: a candidate already answered → its last outcome; Baseline
/// and Confirm → reproduced (the path reproduced before); Audit and Bisect → not
/// reproduced (the audit expects its negatives; a half rarely keeps every needed
/// step); OneByOne → reproduced (most steps of a long path are noise) unless the same
/// step's single deletion was already seen failing (a learned relevance estimate).
#[derive(Debug, Clone, Default)]
pub struct Predictor {
    last: HashMap<Vec<u32>, bool>,
    /// Steps whose single deletion from `current` was seen not reproducing.
    relevant: HashSet<u32>,
}

impl Predictor {
    /// Learns from a real (consumed) outcome; `current` is the reducer's before it.
    pub fn learn(&mut self, request: &ReplayRequest, current: &[u32], outcome: &ReplayOutcome) {
        let reproduced = match outcome {
            ReplayOutcome::Reproduced => true,
            ReplayOutcome::NotReproduced { .. } => false,
            ReplayOutcome::Failed { .. }
            | ReplayOutcome::CaptureMissing { .. }
            | ReplayOutcome::Cancelled => return,
        };
        self.last.insert(request.candidate.clone(), reproduced);
        if !reproduced && matches!(request.phase, Phase::OneByOne | Phase::Audit) {
            if let Some(step) = removed_step(current, &request.candidate) {
                self.relevant.insert(step);
            }
        }
    }

    /// The guess for `request`; `overlay` holds the guesses made earlier in this chain,
    /// `current` is the (cloned) reducer's current candidate.
    pub fn predict(
        &self,
        request: &ReplayRequest,
        current: &[u32],
        overlay: &HashMap<Vec<u32>, bool>,
    ) -> bool {
        if let Some(&seen) = overlay
            .get(&request.candidate)
            .or_else(|| self.last.get(&request.candidate))
        {
            return seen;
        }
        match request.phase {
            Phase::Baseline | Phase::Confirm => true,
            Phase::Audit | Phase::Bisect => false,
            Phase::OneByOne => removed_step(current, &request.candidate)
                .is_none_or(|step| !self.relevant.contains(&step)),
        }
    }
}

/// The one step of `current` missing from `candidate`, when it is a single deletion.
fn removed_step(current: &[u32], candidate: &[u32]) -> Option<u32> {
    if candidate.len() + 1 != current.len() {
        return None;
    }
    let at = current
        .iter()
        .zip(candidate)
        .position(|(a, b)| a != b)
        .unwrap_or(candidate.len());
    Some(current[at])
}

/// The outcome a prediction stands for when the clone records it.
pub(crate) fn predicted_outcome(reproduced: bool) -> ReplayOutcome {
    if reproduced {
        ReplayOutcome::Reproduced
    } else {
        // The clone only needs "not reproduced"; no reason is ever read from it.
        ReplayOutcome::NotReproduced {
            reason: MissReason::NoCrash,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FailureCause;

    fn request(phase: Phase, candidate: &[u32]) -> ReplayRequest {
        ReplayRequest {
            attempt: 1,
            phase,
            candidate: candidate.to_vec(),
        }
    }

    #[test]
    fn phase_defaults_then_history_then_learned_relevance() {
        let mut p = Predictor::default();
        let none = HashMap::new();
        let current = [1, 2, 3, 4];
        assert!(p.predict(&request(Phase::Baseline, &current), &current, &none));
        assert!(p.predict(&request(Phase::Confirm, &current), &current, &none));
        assert!(!p.predict(&request(Phase::Audit, &[2, 3, 4]), &current, &none));
        assert!(!p.predict(&request(Phase::Bisect, &[1, 2]), &current, &none));
        assert!(p.predict(&request(Phase::OneByOne, &[1, 3, 4]), &current, &none));

        // Step 2's deletion failed once: its next single deletion is predicted failing,
        // even from a shorter current; other steps keep the default.
        let no = ReplayOutcome::NotReproduced {
            reason: MissReason::NoCrash,
        };
        p.learn(&request(Phase::OneByOne, &[1, 3, 4]), &current, &no);
        assert!(!p.predict(&request(Phase::OneByOne, &[1, 3]), &[1, 2, 3], &none));
        assert!(p.predict(&request(Phase::OneByOne, &[2, 3]), &[1, 2, 3], &none));

        // A candidate seen before is predicted by its last outcome, whatever the phase.
        p.learn(
            &request(Phase::Bisect, &[1, 2]),
            &current,
            &ReplayOutcome::Reproduced,
        );
        assert!(p.predict(&request(Phase::Bisect, &[1, 2]), &current, &none));
        let overlay = HashMap::from([(vec![1, 2], false)]);
        assert!(!p.predict(&request(Phase::Bisect, &[1, 2]), &current, &overlay));

        // Infrastructure outcomes teach nothing.
        let err = ReplayOutcome::Failed {
            cause: FailureCause::Drain { detail: "e".into() },
        };
        p.learn(&request(Phase::OneByOne, &[2, 3, 4]), &current, &err);
        assert!(p.predict(&request(Phase::OneByOne, &[2, 3, 4]), &current, &none));
    }

    #[test]
    fn removed_step_finds_the_single_deletion_only() {
        assert_eq!(removed_step(&[1, 2, 3], &[1, 3]), Some(2));
        assert_eq!(removed_step(&[1, 2, 3], &[1, 2]), Some(3));
        assert_eq!(removed_step(&[1, 2, 3], &[1]), None);
        assert_eq!(removed_step(&[7], &[]), Some(7));
    }
}
