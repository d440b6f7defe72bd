//! The seed's search stage (Phase 3's `while |current| >= 2` loop): try both halves of
//! `current`, then each single deletion once; any reproducing candidate becomes
//! `current` and the loop restarts. A single negative only ends the search; the shared
//! audit decides what can be deleted.

use crate::engine::{without, Ledger, Move, Phase, SearchStage};

/// Where the seed's search loop is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeedSearch {
    at: At,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum At {
    /// `while baseline.reproduced and len(current) >= 2 and !budget_exhausted`
    #[default]
    Guard,
    /// `for cand in [current[:mid], current[mid:]]`, at half 0 or 1
    Bisect { half: usize },
    /// `for i in range(len(current))` of the one-by-one deletion loop
    OneByOne { i: usize },
    /// `break` out of the search loop.
    Done,
}

impl SearchStage for SeedSearch {
    fn step(&mut self, ledger: &mut Ledger) -> Move {
        match self.at {
            At::Guard => {
                if ledger.current().len() >= 2 && !ledger.budget_exhausted() {
                    self.at = At::Bisect { half: 0 };
                    Move::Continue
                } else {
                    self.at = At::Done;
                    Move::Finished
                }
            }
            At::Bisect { half } => Move::Replay(Phase::Bisect, half_of(ledger.current(), half)),
            At::OneByOne { i } => {
                if i >= ledger.current().len() {
                    // `if not progress: break` — a single negative only ends the search.
                    self.at = At::Done;
                    Move::Finished
                } else if ledger.out_of_budget() {
                    ledger.exhaust_budget();
                    self.at = At::Done;
                    Move::Finished
                } else {
                    Move::Replay(Phase::OneByOne, without(ledger.current(), i))
                }
            }
            At::Done => Move::Finished,
        }
    }

    fn resume(&mut self, ledger: &mut Ledger, verdict: Option<bool>) {
        match self.at {
            At::Bisect { half } => {
                self.at = match verdict {
                    Some(true) => {
                        ledger.set_current(half_of(ledger.current(), half));
                        At::Guard
                    }
                    Some(false) if half == 0 => At::Bisect { half: 1 },
                    // `if result == null: break`, or both halves failed.
                    _ => At::OneByOne { i: 0 },
                };
            }
            At::OneByOne { i } => {
                if verdict == Some(true) {
                    ledger.set_current(without(ledger.current(), i));
                    self.at = At::Guard;
                } else {
                    self.at = At::OneByOne { i: i + 1 };
                }
            }
            // These points never issue a replay.
            At::Guard | At::Done => {}
        }
    }
}

/// `current[:mid]` or `current[mid:]` with `mid = len // 2`.
fn half_of(current: &[u32], half: usize) -> Vec<u32> {
    let mid = current.len() / 2;
    if half == 0 {
        current[..mid].to_vec()
    } else {
        current[mid..].to_vec()
    }
}
