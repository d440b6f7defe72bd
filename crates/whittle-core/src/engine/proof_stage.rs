//! The stage every strategy shares after its search: the seed's fixed-point audit
//! (consistent negatives for every single deletion of `current`; a deletion seen
//! reproducing shortens `current` and restarts the audit) and the final confirmation
//! (`current` sampled until it has `HIGH_CONFIDENCE_RUNS` verdicts). Each variant is a
//! point in the seed's pseudo-code; the comments quote the line it stands for.

use super::history::{count_false, is_mixed};
use super::ledger::without;
use super::{Ledger, Move, Phase, HIGH_CONFIDENCE_RUNS};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProofStage {
    /// `while baseline.reproduced and !budget_exhausted` of the fixed-point audit
    AuditGuard,
    /// the audit's `for i in range(len(current))`, inside or just after its sampling `while`
    AuditSample {
        i: usize,
    },
    /// `while len(outcome_history[final_key]) < HIGH_CONFIDENCE_RUNS`
    ConfirmGuard,
    Done,
}

impl ProofStage {
    /// `required`: the consistent negatives a deletion needs (the seed's
    /// `NEGATIVE_PROOF_RUNS` unless a strategy asks for more).
    pub(crate) fn step(&mut self, ledger: &mut Ledger, required: usize) -> Move {
        match *self {
            ProofStage::AuditGuard => {
                if ledger.budget_exhausted() {
                    *self = ProofStage::ConfirmGuard;
                } else if ledger.current().is_empty() {
                    // current=[] came from the live baseline or a live replay([]) hit.
                    ledger.mark_fixed_point();
                    *self = ProofStage::ConfirmGuard;
                } else {
                    *self = ProofStage::AuditSample { i: 0 };
                }
                Move::Continue
            }
            ProofStage::AuditSample { i } => {
                if i >= ledger.current().len() {
                    // The `for` ran to its end: every deletion has consistent negatives.
                    ledger.mark_fixed_point();
                    *self = ProofStage::ConfirmGuard;
                    return Move::Continue;
                }
                let candidate = without(ledger.current(), i);
                let outcomes = ledger.outcomes_or_create(&candidate);
                if !outcomes.contains(&true) && count_false(outcomes) < required {
                    Move::Replay(Phase::Audit, candidate)
                } else {
                    self.after_audit_sampling(ledger, i, &candidate, required);
                    Move::Continue
                }
            }
            ProofStage::ConfirmGuard => {
                if ledger.outcomes(ledger.current()).len() < HIGH_CONFIDENCE_RUNS {
                    Move::Replay(Phase::Confirm, ledger.current().to_vec())
                } else if ledger.fixed_point_reached()
                    && !ledger.budget_exhausted()
                    && short_deletion(ledger, required)
                {
                    // The strategy's count grew since the fixed point (its crash-rate
                    // estimate fell): audit again, from the first deletion. The seed's
                    // count is a constant, so the seed never comes here.
                    ledger.reopen_fixed_point();
                    *self = ProofStage::AuditGuard;
                    Move::Continue
                } else {
                    ledger.settle_final(HIGH_CONFIDENCE_RUNS);
                    *self = ProofStage::Done;
                    Move::Finished
                }
            }
            ProofStage::Done => Move::Finished,
        }
    }

    /// Continues after `try_candidate` returned `verdict` (None = null).
    pub(crate) fn resume(&mut self, ledger: &mut Ledger, verdict: Option<bool>, required: usize) {
        match *self {
            ProofStage::AuditSample { i } => {
                // A verdict re-enters the sampling `while`; null is `proof_complete=false; break`.
                if verdict.is_none() {
                    let candidate = without(ledger.current(), i);
                    self.after_audit_sampling(ledger, i, &candidate, required);
                }
            }
            ProofStage::ConfirmGuard => {
                if verdict.is_none() {
                    ledger.settle_final(HIGH_CONFIDENCE_RUNS);
                    *self = ProofStage::Done;
                }
            }
            // These points never issue a replay.
            ProofStage::AuditGuard | ProofStage::Done => {}
        }
    }

    /// The checks after the audit's sampling `while` for deletion `i`.
    fn after_audit_sampling(
        &mut self,
        ledger: &mut Ledger,
        i: usize,
        candidate: &[u32],
        required: usize,
    ) {
        let outcomes = ledger.outcomes(candidate);
        let (mixed, hit, negatives) = (
            is_mixed(outcomes),
            outcomes.contains(&true),
            count_false(outcomes),
        );
        if mixed {
            ledger.latch_flaky();
        }
        *self = if hit {
            // audit_progress: current gets strictly shorter; audit the new deletions.
            ledger.set_current(candidate.to_vec());
            ProofStage::AuditGuard
        } else if negatives < required {
            // proof_complete = false: no fixed point.
            ProofStage::ConfirmGuard
        } else {
            ProofStage::AuditSample { i: i + 1 }
        };
    }
}

/// Some single deletion of `current` has no hit and fewer than `required` negatives.
fn short_deletion(ledger: &Ledger, required: usize) -> bool {
    (0..ledger.current().len()).any(|i| {
        let outcomes = ledger.outcomes(&without(ledger.current(), i));
        !outcomes.contains(&true) && count_false(outcomes) < required
    })
}
