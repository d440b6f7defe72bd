//! What a search strategy is: only the search stage between the live baseline and the
//! shared fixed-point audit. The [`super::Engine`] runs the baseline, hands `current`
//! to the search, then runs the audit and the confirmation; the [`super::Ledger`] keeps
//! the books for all of them.

use std::fmt;

use super::{Ledger, Phase, StatisticalProof};

/// One move of a stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// Call `try_candidate` on this candidate. When it returns null at once (budget,
    /// failure), the stage's `resume` runs with `None` in the same step.
    Replay(Phase, Vec<u32>),
    /// The stage moved inside itself; ask it again.
    Continue,
    /// The stage is over; the engine moves on to the next one.
    Finished,
}

/// The search stage of a strategy. It may read the ledger and shorten `current` (only to
/// a candidate seen reproducing live), latch `budget_exhausted`, and ask for replays.
pub trait SearchStage: Clone + fmt::Debug + Send + 'static {
    /// Called once, when the live baseline reproduced and the search starts.
    fn begin(&mut self, _ledger: &Ledger) {}

    /// The next move from where the search stands.
    fn step(&mut self, ledger: &mut Ledger) -> Move;

    /// Continues after the replay this stage asked for: `Some(reproduced)`, or `None`
    /// when `try_candidate` returned null.
    fn resume(&mut self, ledger: &mut Ledger, verdict: Option<bool>);

    /// How many consistent negatives the shared audit needs before a single deletion
    /// counts as disproved. Never fewer than the seed's `NEGATIVE_PROOF_RUNS`.
    fn negatives_required(&self, _ledger: &Ledger) -> usize {
        super::NEGATIVE_PROOF_RUNS
    }

    /// `Some` when this strategy's negatives are statistical evidence, not the seed's
    /// proof; the result carries it and is never rated high.
    fn statistical(&self) -> Option<StatisticalProof> {
        None
    }
}
