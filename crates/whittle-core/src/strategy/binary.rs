//! The `binary` strategy: the seed's proof with a cheaper search (issue #7).
//!
//! The search keeps `current` as `area ++ fixed`: `fixed` are steps already found
//! essential (in order, all after the area), `area` a prefix still to search. A binary
//! search finds the shortest prefix `area[..p]` with which `area[..p] ++ fixed` still
//! reproduces; the step at `p - 1` is then essential and joins `fixed`, and the search
//! repeats on `area[..p-1]`. Each essential step costs about log2(position) replays,
//! instead of the seed's one-by-one pass that restarts after every success.
//!
//! A search verdict only steers: every reproducing candidate becomes the new `current`
//! (so the result is always the shortest live hit), and the shared fixed-point audit
//! and final confirmation run after it. Outcomes already in the history are reused: a
//! candidate seen reproducing is taken as reproducing without a replay.
//! Search replays are reported with `Phase::Bisect`, so drivers and the UI need no new phase.

use crate::engine::{Engine, Ledger, Move, Phase, SearchStage};

/// The binary strategy's engine.
pub type BinaryEngine = Engine<BinarySearch>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BinarySearch {
    /// Length of the prefix of `current` still searched; the rest is `fixed`.
    area: usize,
    /// The shortest reproducing prefix length is searched in `[lo, area]`.
    lo: usize,
    done: bool,
}

impl BinarySearch {
    /// `area[..len] ++ fixed`.
    fn probe(&self, current: &[u32], len: usize) -> Vec<u32> {
        let mut candidate = current[..len].to_vec();
        candidate.extend_from_slice(&current[self.area..]);
        candidate
    }

    /// The prefix length to try next. Once a step is fixed, `fixed` alone is tried
    /// first: it ends the search in one replay when nothing before is needed (that hit
    /// is the first of the 3 confirmations), and when it fails it is the audit's
    /// "without the first step" candidate for the last round.
    fn mid(&self, current: &[u32]) -> usize {
        if self.lo == 0 && self.area < current.len() {
            0
        } else {
            (self.lo + self.area) / 2
        }
    }

    fn verdict(&mut self, ledger: &mut Ledger, verdict: Option<bool>) {
        let mid = self.mid(ledger.current());
        match verdict {
            Some(true) => {
                ledger.set_current(self.probe(ledger.current(), mid));
                self.area = mid;
            }
            Some(false) => self.lo = mid + 1,
            // Budget or infrastructure: the shared audit and confirmation decide the rest.
            None => self.done = true,
        }
    }
}

impl SearchStage for BinarySearch {
    fn begin(&mut self, ledger: &Ledger) {
        *self = BinarySearch {
            area: ledger.current().len(),
            lo: 0,
            done: false,
        };
    }

    fn step(&mut self, ledger: &mut Ledger) -> Move {
        if self.done || ledger.budget_exhausted() {
            self.done = true;
            return Move::Finished;
        }
        if self.lo >= self.area {
            if self.area == 0 {
                // `fixed` alone reproduced (or nothing was left to search): audit it.
                self.done = true;
                return Move::Finished;
            }
            // `area[..area-1] ++ fixed` did not reproduce: the last area step is
            // needed; it joins `fixed` and the search goes on before it.
            self.area -= 1;
            self.lo = 0;
            return Move::Continue;
        }
        let candidate = self.probe(ledger.current(), self.mid(ledger.current()));
        let seen = ledger.outcomes(&candidate);
        if seen.contains(&true) {
            // Seen reproducing: accepted without a replay.
            self.verdict(ledger, Some(true));
            Move::Continue
        } else if !seen.is_empty() {
            self.verdict(ledger, Some(false));
            Move::Continue
        } else {
            Move::Replay(Phase::Bisect, candidate)
        }
    }

    fn resume(&mut self, ledger: &mut Ledger, verdict: Option<bool>) {
        self.verdict(ledger, verdict);
    }
}
