//! The outcome a guess assumes for each request, and how sure it is. A wrong guess costs
//! wasted replays (every guess grown on it), never a wrong decision. The confidence is
//! what the scheduler weighs its guesses by: where it is near one half, both outcomes
//! are worth running (`tree.rs`).

use std::collections::{HashMap, HashSet};

use crate::engine::{MissReason, Phase, ReplayOutcome, ReplayRequest};

/// A predicted outcome and the chance it is right (at least one half: below that the
/// other outcome is the guess).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Guess {
    pub reproduced: bool,
    pub confidence: f64,
}

impl Guess {
    /// The chance the request reproduces.
    pub fn p_reproduced(self) -> f64 {
        if self.reproduced {
            self.confidence
        } else {
            1.0 - self.confidence
        }
    }
}

/// Which rule made a guess; each keeps its own record of being right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// A candidate already answered: its last outcome.
    Seen,
    /// Baseline and Confirm: the path reproduced before.
    Expected,
    /// The audit expects its negatives.
    Audit,
    /// A half of `current` (the seed's bisection) rarely keeps every needed step.
    Half,
    /// Any other bisection query (a prefix of the area and the steps found needed, in
    /// `binary` and `flaky`): one bit the search does not know, a coin toss.
    Prefix,
    /// A single deletion of a step not known to matter: most steps are noise.
    Noise,
    /// A single deletion of a step whose deletion was seen failing.
    Relevant,
}

impl Rule {
    const ALL: [Rule; 7] = [
        Rule::Seen,
        Rule::Expected,
        Rule::Audit,
        Rule::Half,
        Rule::Prefix,
        Rule::Noise,
        Rule::Relevant,
    ];

    /// How often the rule is taken to be right before it has been seen at work, and as
    /// how many verdicts that counts. A prefix query is a coin toss and stays one: a
    /// few answers the same way in a row say where the needed steps lie, not how the
    /// next query (moved by them) will go, so its prior weighs much more than the others'.
    fn prior(self) -> (f64, f64) {
        match self {
            Rule::Seen | Rule::Expected | Rule::Relevant => (0.95, 2.0),
            Rule::Audit | Rule::Half | Rule::Noise => (0.9, 2.0),
            Rule::Prefix => (0.5, 16.0),
        }
    }

    fn index(self) -> usize {
        Rule::ALL.iter().position(|&r| r == self).unwrap_or(0)
    }
}

/// Guesses, in this order: a candidate already answered → its last outcome; Baseline
/// and Confirm → reproduced (the path reproduced before); Audit and Bisect → not
/// reproduced (the audit expects its negatives; a half rarely keeps every needed
/// step); OneByOne → reproduced (most steps of a long path are noise) unless the same
/// step's single deletion was already seen failing (a learned relevance estimate).
/// Each guess's confidence is how often its rule was right on this run's real outcomes
/// (starting from the rule's prior), so it follows the app and the strategy at hand.
#[derive(Debug, Clone, Default)]
pub struct Predictor {
    last: HashMap<Vec<u32>, bool>,
    /// Steps whose single deletion from `current` was seen not reproducing.
    relevant: HashSet<u32>,
    /// Per rule: (right, judged) over the real outcomes.
    record: [(u32, u32); Rule::ALL.len()],
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
        // What this predictor would have said, judged before it learns the answer.
        let (rule, said) = self.rule(request, current, &HashMap::new());
        let record = &mut self.record[rule.index()];
        record.1 = record.1.saturating_add(1);
        if said == reproduced {
            record.0 = record.0.saturating_add(1);
        }
        self.last.insert(request.candidate.clone(), reproduced);
        if !reproduced && matches!(request.phase, Phase::OneByOne | Phase::Audit) {
            if let Some(step) = removed_step(current, &request.candidate) {
                self.relevant.insert(step);
            }
        }
    }

    /// The guess for `request`; `overlay` holds the verdicts the guesses above it
    /// assume, `current` is the (cloned) reducer's current candidate.
    pub fn guess(
        &self,
        request: &ReplayRequest,
        current: &[u32],
        overlay: &HashMap<Vec<u32>, bool>,
    ) -> Guess {
        let (rule, reproduced) = self.rule(request, current, overlay);
        let (right, judged) = self.record[rule.index()];
        let (prior, weight) = rule.prior();
        let confidence = (f64::from(right) + prior * weight) / (f64::from(judged) + weight);
        if confidence >= 0.5 {
            Guess {
                reproduced,
                confidence,
            }
        } else {
            // The rule is wrong more often than right here: the other outcome is the guess.
            Guess {
                reproduced: !reproduced,
                confidence: 1.0 - confidence,
            }
        }
    }

    /// The likelier outcome of `request` (see [`Predictor::guess`]).
    pub fn predict(
        &self,
        request: &ReplayRequest,
        current: &[u32],
        overlay: &HashMap<Vec<u32>, bool>,
    ) -> bool {
        self.guess(request, current, overlay).reproduced
    }

    /// The rule that answers `request`, and its answer.
    fn rule(
        &self,
        request: &ReplayRequest,
        current: &[u32],
        overlay: &HashMap<Vec<u32>, bool>,
    ) -> (Rule, bool) {
        if let Some(&seen) = overlay
            .get(&request.candidate)
            .or_else(|| self.last.get(&request.candidate))
        {
            return (Rule::Seen, seen);
        }
        match request.phase {
            Phase::Baseline | Phase::Confirm => (Rule::Expected, true),
            Phase::Audit => (Rule::Audit, false),
            Phase::Bisect if is_half(current, &request.candidate) => (Rule::Half, false),
            Phase::Bisect => (Rule::Prefix, false),
            Phase::OneByOne => match removed_step(current, &request.candidate) {
                Some(step) if self.relevant.contains(&step) => (Rule::Relevant, false),
                _ => (Rule::Noise, true),
            },
        }
    }
}

/// `current[..len / 2]` or `current[len / 2..]`: the seed's bisection.
fn is_half(current: &[u32], candidate: &[u32]) -> bool {
    let mid = current.len() / 2;
    candidate == &current[..mid] || candidate == &current[mid..]
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
