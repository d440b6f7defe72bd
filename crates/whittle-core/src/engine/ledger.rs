//! The search ledger: everything a reduction keeps whatever its search strategy — the
//! budget and the attempts, the seed's flags ([`SearchFlags`]: `budget_exhausted`,
//! `fixed_point_reached`, `final_confirmed`, `flaky_observed`), the stop (a cancel or a capture/runtime failure), the
//! `outcome_history`, the pending replay with its phase, and `current`.
//!
//! `try_candidate` of the seed's pseudo-code is split in two: [`Ledger::try_candidate`]
//! runs the checks that may return null without replaying (budget, then the halt that
//! stands in for the capture check) and numbers the replay; [`Ledger::take_verdict`]
//! runs the rest once the driver has replayed.

use std::collections::HashSet;

use super::history::{is_mixed, OutcomeHistory};
use super::result::reproducing_counts;
use super::{
    EngineError, EngineSnapshot, Phase, ProofRow, ReplayOutcome, ReplayRequest, SearchFlags,
    SearchResult, SearchStop,
};

#[derive(Debug, Clone)]
pub struct Ledger {
    max_replays: u32,
    current: Vec<u32>,
    /// Replays whose outcomes were recorded: what the budget counts.
    attempts: u32,
    /// Attempt numbers taken by replays that ran but were never recorded (wasted
    /// speculation on other devices): skipped so numbers stay unique, never budgeted.
    skipped: u32,
    baseline_reproduced: bool,
    flags: SearchFlags,
    stop: Option<SearchStop>,
    outcome_history: OutcomeHistory,
    pending: Option<ReplayRequest>,
    phase: Phase,
}

impl Ledger {
    /// `replayable`: the replayable step indexes in original order (launch setup
    /// excluded). A zero budget and a repeated step are refused before any side effect.
    pub(crate) fn new(replayable: Vec<u32>, max_replays: u32) -> Result<Ledger, EngineError> {
        if max_replays == 0 {
            return Err(EngineError::InvalidBudget { max_replays });
        }
        let mut seen = HashSet::new();
        if let Some(&step) = replayable.iter().find(|&&step| !seen.insert(step)) {
            return Err(EngineError::DuplicateStep { step });
        }
        Ok(Ledger {
            max_replays,
            current: replayable,
            attempts: 0,
            skipped: 0,
            baseline_reproduced: false,
            flags: SearchFlags::default(),
            stop: None,
            outcome_history: OutcomeHistory::default(),
            pending: None,
            phase: Phase::Baseline,
        })
    }

    /// The shortest candidate that reproduced so far (the full path before the baseline).
    pub fn current(&self) -> &[u32] {
        &self.current
    }

    pub(crate) fn set_current(&mut self, candidate: Vec<u32>) {
        self.current = candidate;
    }

    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    pub fn max_replays(&self) -> u32 {
        self.max_replays
    }

    /// Replays the budget still allows.
    pub fn budget_left(&self) -> u32 {
        self.max_replays.saturating_sub(self.attempts)
    }

    /// `attempts >= max_replays`: the next `try_candidate` would return null.
    pub fn out_of_budget(&self) -> bool {
        self.attempts >= self.max_replays
    }

    pub fn budget_exhausted(&self) -> bool {
        self.flags.budget_exhausted
    }

    /// The seed's `budget_exhausted = true` (a latch).
    pub(crate) fn exhaust_budget(&mut self) {
        self.flags.budget_exhausted = true;
    }

    pub fn baseline_reproduced(&self) -> bool {
        self.baseline_reproduced
    }

    pub(crate) fn mark_baseline_reproduced(&mut self) {
        self.baseline_reproduced = true;
    }

    pub(crate) fn mark_fixed_point(&mut self) {
        self.flags.fixed_point_reached = true;
    }

    pub fn fixed_point_reached(&self) -> bool {
        self.flags.fixed_point_reached
    }

    /// The audit is reopened: a strategy now asks more negatives than the fixed point
    /// was reached with (never the seed, whose count is a constant).
    pub(crate) fn reopen_fixed_point(&mut self) {
        self.flags.fixed_point_reached = false;
    }

    pub fn flaky_observed(&self) -> bool {
        self.flags.flaky_observed
    }

    /// The seed's `flaky_observed = true` (a latch: nothing ever clears it).
    pub(crate) fn latch_flaky(&mut self) {
        self.flags.flaky_observed = true;
    }

    /// Every verdict recorded for `candidate` (empty if none).
    pub fn outcomes(&self, candidate: &[u32]) -> &[bool] {
        self.outcome_history.get(candidate)
    }

    /// (hits, verdicts) over the candidates seen reproducing at least once.
    pub fn reproducing_counts(&self) -> (u32, u32) {
        reproducing_counts(self.outcome_history.entries())
    }

    /// The seed's `outcome_history.getOrCreate(key, [])`: the key is listed from now on.
    pub(crate) fn outcomes_or_create(&mut self, candidate: &[u32]) -> &[bool] {
        self.outcome_history.get_or_create(candidate)
    }

    /// The checks of `try_candidate` that return null before any replay; `false` = null.
    /// Otherwise the replay becomes the pending request, numbered after every replay
    /// that ran (recorded or skipped).
    pub(crate) fn try_candidate(&mut self, phase: Phase, candidate: Vec<u32>) -> bool {
        if self.attempts >= self.max_replays {
            self.flags.budget_exhausted = true;
            return false;
        }
        // Stands where the seed checks the capture: once the capture is gone, a runtime
        // failure made the run unusable or the user cancelled, no further replay is issued.
        if self.stop.is_some() {
            return false;
        }
        self.phase = phase;
        self.pending = Some(ReplayRequest {
            attempt: self.attempts.saturating_add(self.skipped).saturating_add(1),
            phase,
            candidate,
        });
        true
    }

    pub(crate) fn pending(&self) -> Option<&ReplayRequest> {
        self.pending.as_ref()
    }

    /// Answers the pending replay: the rest of `try_candidate`. `None` when nothing is
    /// pending; `Some(None)` when `try_candidate` returns null (capture gone, runtime
    /// error, cancel); `Some(Some(reproduced))` for a verdict.
    pub(crate) fn take_verdict(&mut self, outcome: ReplayOutcome) -> Option<Option<bool>> {
        let request = self.pending.take()?;
        Some(match outcome {
            ReplayOutcome::CaptureMissing { cause } => {
                // The replay never ran: latch, do not count it.
                self.stop.get_or_insert(SearchStop::CaptureFailed { cause });
                None
            }
            ReplayOutcome::Failed { cause } => {
                self.attempts = self.attempts.saturating_add(1);
                self.stop.get_or_insert(SearchStop::RuntimeFailed { cause });
                None
            }
            ReplayOutcome::Cancelled => {
                self.attempts = self.attempts.saturating_add(1);
                self.stop.get_or_insert(SearchStop::Cancelled);
                None
            }
            ReplayOutcome::Reproduced => Some(self.count_verdict(&request.candidate, true)),
            ReplayOutcome::NotReproduced { .. } => {
                Some(self.count_verdict(&request.candidate, false))
            }
        })
    }

    /// The rest of `try_candidate` after a replay that produced a verdict.
    fn count_verdict(&mut self, candidate: &[u32], reproduced: bool) -> bool {
        self.attempts = self.attempts.saturating_add(1);
        self.outcome_history.append(candidate, reproduced);
        if is_mixed(self.outcome_history.get(candidate)) {
            self.flags.flaky_observed = true;
        }
        reproduced
    }

    /// Skips the numbers of `n` replays that ran but whose outcomes were never recorded
    /// (speculative replays of a parallel run whose prediction turned out wrong). They
    /// are not the search's replays, so the budget does not count them (the scheduler
    /// caps them separately): the search asks for, and is charged, exactly what it
    /// would on one device. The next request is numbered after them, so attempt numbers
    /// stay unique and increasing; a pending request was numbered before the skip, so
    /// it is dropped and re-issued from the same point of the search.
    pub(crate) fn skip_unconsumed(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        self.skipped = self.skipped.saturating_add(n);
        self.pending = None;
    }

    /// After the confirmation loop: `final_confirmed`, then the late `budget_exhausted`.
    pub(crate) fn settle_final(&mut self, confirmation_runs: usize) {
        let current = self.current.clone();
        let final_outcomes = self.outcome_history.get_or_create(&current);
        if is_mixed(final_outcomes) {
            self.flags.flaky_observed = true;
        }
        self.flags.final_confirmed = final_outcomes.len() >= confirmation_runs
            && final_outcomes.iter().all(|&reproduced| reproduced);
        if !self.flags.final_confirmed && self.attempts >= self.max_replays {
            self.flags.budget_exhausted = true;
        }
    }

    pub fn snapshot(&self) -> EngineSnapshot {
        EngineSnapshot {
            phase: self.phase,
            current: self.current.clone(),
            candidate: self
                .pending
                .as_ref()
                .map(|request| request.candidate.clone()),
            attempts: self.attempts,
            max_replays: self.max_replays,
            flaky_observed: self.flags.flaky_observed,
            budget_exhausted: self.flags.budget_exhausted,
            outcome_history: self.outcome_history.entries().to_vec(),
        }
    }

    pub(crate) fn search_result(&self) -> SearchResult {
        let proof = if self.baseline_reproduced {
            (0..self.current.len())
                .map(|i| {
                    let candidate = without(&self.current, i);
                    ProofRow {
                        removed_step: self.current[i],
                        outcomes: self.outcome_history.get(&candidate).to_vec(),
                        candidate,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        SearchResult {
            baseline_reproduced: self.baseline_reproduced,
            current: self.current.clone(),
            attempts: self.attempts,
            max_replays: self.max_replays,
            flags: self.flags,
            stop: self.stop.clone(),
            proof,
            outcome_history: self.outcome_history.entries().to_vec(),
            statistical: None,
        }
    }
}

/// `current[:i] + current[i+1:]`.
pub(crate) fn without(current: &[u32], i: usize) -> Vec<u32> {
    current
        .iter()
        .enumerate()
        .filter(|&(at, _)| at != i)
        .map(|(_, &step)| step)
        .collect()
}
