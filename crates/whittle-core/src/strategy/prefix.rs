//! The prefix search shared by `binary` and `flaky` (issue #7).
//!
//! The search keeps `current` as `area ++ fixed`: `fixed` are steps already found
//! essential (in order, all after the area), `area` a prefix still to search. A binary
//! search finds the shortest prefix `area[..p]` with which `area[..p] ++ fixed` still
//! reproduces; the step at `p - 1` is then essential and joins `fixed`, and the search
//! repeats on `area[..p-1]`. Each essential step costs about log2(position) verdicts,
//! instead of the seed's one-by-one pass that restarts after every success.
//!
//! A verdict only steers: every reproducing candidate becomes the new `current` (so the
//! result is always the shortest live hit), and the shared audit decides what stays.
//! How many replays make a verdict is the strategy's [`Verdicts`] rule; the search asks
//! it again after every replay, from the outcome history alone.

use crate::engine::{Ledger, Move, Phase};

/// Turns a candidate's outcomes so far into a search verdict, or `None` to replay it
/// again.
pub(crate) trait Verdicts {
    fn decide(&self, ledger: &Ledger, outcomes: &[bool]) -> Option<bool>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PrefixSearch {
    /// Length of the prefix of `current` still searched; the rest is `fixed`.
    area: usize,
    /// The shortest reproducing prefix length is searched in `[lo, area]`.
    lo: usize,
    done: bool,
}

impl PrefixSearch {
    pub(crate) fn begin(ledger: &Ledger) -> PrefixSearch {
        PrefixSearch {
            area: ledger.current().len(),
            lo: 0,
            done: false,
        }
    }

    pub(crate) fn step(&mut self, ledger: &mut Ledger, verdicts: &impl Verdicts) -> Move {
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
        let mid = self.mid(ledger.current());
        let candidate = self.probe(ledger.current(), mid);
        match verdicts.decide(ledger, ledger.outcomes(&candidate)) {
            Some(true) => {
                // Seen reproducing: the new `current`, without another replay.
                ledger.set_current(candidate);
                self.area = mid;
            }
            Some(false) => self.lo = mid + 1,
            None => return Move::Replay(Phase::Bisect, candidate),
        }
        Move::Continue
    }

    /// A verdict was recorded: the next `step` decides from the history. `None`
    /// (budget or infrastructure): the shared audit and confirmation decide the rest.
    pub(crate) fn resume(&mut self, verdict: Option<bool>) {
        if verdict.is_none() {
            self.done = true;
        }
    }

    /// `area[..len] ++ fixed`.
    fn probe(&self, current: &[u32], len: usize) -> Vec<u32> {
        let mut candidate = current[..len].to_vec();
        candidate.extend_from_slice(&current[self.area..]);
        candidate
    }

    /// The prefix length to try next. Once a step is fixed, `fixed` alone is tried
    /// first: it ends the search in one verdict when nothing before is needed (that
    /// hit is the first of the 3 confirmations), and when it fails it is the audit's
    /// "without the first step" candidate for the last round.
    fn mid(&self, current: &[u32]) -> usize {
        if self.lo == 0 && self.area < current.len() {
            0
        } else {
            (self.lo + self.area) / 2
        }
    }
}
