//! The `binary` strategy: the seed's proof with a cheaper search (issue #7). Its search
//! is the prefix search of [`super::prefix`] with one replay per verdict: outcomes
//! already in the history are reused (a candidate seen reproducing is taken as
//! reproducing without a replay, one seen failing as failing). The shared fixed-point
//! audit and final confirmation run after it. Search replays are reported with
//! `Phase::Bisect`, so drivers and the UI need no new phase.

use super::prefix::{PrefixSearch, Verdicts};
use crate::engine::{Engine, Ledger, Move, SearchStage};

/// The binary strategy's engine.
pub type BinaryEngine = Engine<BinarySearch>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BinarySearch {
    search: PrefixSearch,
}

/// One verdict decides: any hit is a hit, any miss a miss.
struct Once;

impl Verdicts for Once {
    fn decide(&self, _ledger: &Ledger, outcomes: &[bool]) -> Option<bool> {
        if outcomes.contains(&true) {
            Some(true)
        } else if outcomes.is_empty() {
            None
        } else {
            Some(false)
        }
    }
}

impl SearchStage for BinarySearch {
    fn begin(&mut self, ledger: &Ledger) {
        self.search = PrefixSearch::begin(ledger);
    }

    fn step(&mut self, ledger: &mut Ledger) -> Move {
        self.search.step(ledger, &Once)
    }

    fn resume(&mut self, _ledger: &mut Ledger, verdict: Option<bool>) {
        self.search.resume(verdict);
    }
}
