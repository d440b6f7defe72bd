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
//! (so the result is always the shortest live hit), and the seed's fixed-point audit
//! (3 consistent negatives per single deletion, a reproducing deletion shortens
//! `current` and restarts the audit) and final 3/3 confirmation run unchanged after
//! it. Outcomes already in the history are reused: a candidate seen reproducing is
//! taken as reproducing without a replay. The flaky latch, the budget and the
//! capture/runtime failure handling are the seed's.
//! Search replays are reported with `Phase::Bisect`, so drivers and the UI need no new phase.

use crate::engine::history::{count_false, is_mixed, OutcomeHistory};
use crate::engine::{
    EngineError, EngineSnapshot, Outcome, Phase, ProofRow, ReplayRequest, Request, SearchResult,
    HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pc {
    Baseline,
    /// Binary search for the shortest reproducing prefix length in `[lo, area]`.
    Search {
        lo: usize,
    },
    AuditGuard,
    AuditSample {
        i: usize,
    },
    ConfirmGuard,
    Done,
}

#[derive(Debug, Clone)]
pub struct BinaryEngine {
    max_replays: u32,
    current: Vec<u32>,
    /// Length of the prefix of `current` still searched; the rest is `fixed`.
    area: usize,
    attempts: u32,
    baseline_reproduced: bool,
    budget_exhausted: bool,
    fixed_point_reached: bool,
    final_confirmed: bool,
    flaky_observed: bool,
    capture_failure: Option<String>,
    runtime_failure: Option<String>,
    outcome_history: OutcomeHistory,
    pc: Pc,
    pending: Option<ReplayRequest>,
    phase: Phase,
}

impl BinaryEngine {
    /// Same input checks as [`crate::Engine::new`].
    pub fn new(replayable: Vec<u32>, max_replays: u32) -> Result<BinaryEngine, EngineError> {
        if max_replays == 0 {
            return Err(EngineError::InvalidBudget { max_replays });
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(&step) = replayable.iter().find(|&&step| !seen.insert(step)) {
            return Err(EngineError::DuplicateStep { step });
        }
        Ok(BinaryEngine {
            max_replays,
            area: replayable.len(),
            current: replayable,
            attempts: 0,
            baseline_reproduced: false,
            budget_exhausted: false,
            fixed_point_reached: false,
            final_confirmed: false,
            flaky_observed: false,
            capture_failure: None,
            runtime_failure: None,
            outcome_history: OutcomeHistory::default(),
            pc: Pc::Baseline,
            pending: None,
            phase: Phase::Baseline,
        })
    }

    pub fn next_request(&mut self) -> Request {
        self.run_until_replay_or_done();
        match &self.pending {
            Some(request) => Request::Replay(request.clone()),
            None => Request::Done(self.search_result()),
        }
    }

    pub fn record(&mut self, outcome: Outcome) {
        self.run_until_replay_or_done();
        let Some(request) = self.pending.take() else {
            return;
        };
        let verdict = match outcome {
            Outcome::CaptureMissing { reason } => {
                // The replay never ran: latch, do not count it.
                self.capture_failure.get_or_insert(reason);
                None
            }
            Outcome::RuntimeError { error } => {
                self.attempts = self.attempts.saturating_add(1);
                self.runtime_failure.get_or_insert(error);
                None
            }
            Outcome::Reproduced => Some(self.count_verdict(&request.candidate, true)),
            Outcome::NotReproduced { .. } => Some(self.count_verdict(&request.candidate, false)),
        };
        self.resume(verdict);
    }

    /// Charges `n` replays that ran but whose outcomes were never recorded (speculative
    /// replays of a parallel run whose prediction turned out wrong). They ran on a
    /// device, so they count against the budget exactly like recorded ones: the
    /// budget check stays `attempts >= max_replays`, and attempt numbers stay unique
    /// and increasing because the next request is numbered after them. A pending
    /// request was numbered (and budget-checked) before the charge, so it is dropped
    /// and re-issued from the same point of the search; no decision changes.
    pub fn charge_unconsumed(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        self.attempts = self.attempts.saturating_add(n);
        self.pending = None;
    }

    /// The shortest candidate that reproduced so far (the full path before the baseline).
    pub fn current(&self) -> &[u32] {
        &self.current
    }

    /// Replays the budget still allows.
    pub fn budget_left(&self) -> u32 {
        self.max_replays.saturating_sub(self.attempts)
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
            flaky_observed: self.flaky_observed,
            budget_exhausted: self.budget_exhausted,
            outcome_history: self.outcome_history.entries().to_vec(),
        }
    }

    fn count_verdict(&mut self, candidate: &[u32], reproduced: bool) -> bool {
        self.attempts = self.attempts.saturating_add(1);
        self.outcome_history.append(candidate, reproduced);
        if is_mixed(self.outcome_history.get(candidate)) {
            self.flaky_observed = true;
        }
        reproduced
    }

    /// The seed's `try_candidate` checks before a replay; `false` = null.
    fn try_candidate(&mut self, phase: Phase, candidate: Vec<u32>) -> bool {
        if self.attempts >= self.max_replays {
            self.budget_exhausted = true;
            return false;
        }
        if self.capture_failure.is_some() || self.runtime_failure.is_some() {
            return false;
        }
        self.phase = phase;
        self.pending = Some(ReplayRequest {
            attempt: self.attempts.saturating_add(1),
            phase,
            candidate,
        });
        true
    }

    fn attempt(&mut self, phase: Phase, candidate: Vec<u32>) {
        if !self.try_candidate(phase, candidate) {
            self.resume(None);
        }
    }

    fn run_until_replay_or_done(&mut self) {
        while self.pending.is_none() && self.pc != Pc::Done {
            self.step();
        }
    }

    /// `area[..len] ++ fixed`.
    fn probe(&self, len: usize) -> Vec<u32> {
        let mut candidate = self.current[..len].to_vec();
        candidate.extend_from_slice(&self.current[self.area..]);
        candidate
    }

    fn step(&mut self) {
        match self.pc {
            Pc::Baseline => self.attempt(Phase::Baseline, self.current.clone()),
            Pc::Search { lo } => self.search_step(lo),
            Pc::AuditGuard => {
                if self.budget_exhausted {
                    self.pc = Pc::ConfirmGuard;
                } else if self.current.is_empty() {
                    // current=[] came from the live baseline or a live replay([]) hit.
                    self.fixed_point_reached = true;
                    self.pc = Pc::ConfirmGuard;
                } else {
                    self.pc = Pc::AuditSample { i: 0 };
                }
            }
            Pc::AuditSample { i } => {
                if i >= self.current.len() {
                    self.fixed_point_reached = true;
                    self.pc = Pc::ConfirmGuard;
                    return;
                }
                let candidate = without(&self.current, i);
                let outcomes = self.outcome_history.get_or_create(&candidate);
                if !outcomes.contains(&true) && count_false(outcomes) < NEGATIVE_PROOF_RUNS {
                    self.attempt(Phase::Audit, candidate);
                } else {
                    self.after_audit_sampling(i, candidate);
                }
            }
            Pc::ConfirmGuard => {
                if self.outcome_history.get(&self.current).len() < HIGH_CONFIDENCE_RUNS {
                    self.attempt(Phase::Confirm, self.current.clone());
                } else {
                    self.finish();
                }
            }
            Pc::Done => {}
        }
    }

    fn search_step(&mut self, lo: usize) {
        if self.budget_exhausted {
            self.pc = Pc::AuditGuard;
        } else if lo >= self.area {
            if self.area == 0 {
                // `fixed` alone reproduced (or nothing was left to search): audit it.
                self.pc = Pc::AuditGuard;
            } else {
                // `area[..area-1] ++ fixed` did not reproduce: the last area step is
                // needed; it joins `fixed` and the search goes on before it.
                self.area -= 1;
                self.pc = Pc::Search { lo: 0 };
            }
        } else {
            let candidate = self.probe(self.mid(lo));
            let seen = self.outcome_history.get(&candidate);
            if seen.contains(&true) {
                // Seen reproducing: accepted without a replay.
                self.search_verdict(lo, Some(true));
            } else if !seen.is_empty() {
                self.search_verdict(lo, Some(false));
            } else {
                self.attempt(Phase::Bisect, candidate);
            }
        }
    }

    /// The prefix length to try next. Once a step is fixed, `fixed` alone is tried
    /// first: it ends the search in one replay when nothing before is needed (that hit
    /// is the first of the 3 confirmations), and when it fails it is the audit's
    /// "without the first step" candidate for the last round.
    fn mid(&self, lo: usize) -> usize {
        if lo == 0 && self.area < self.current.len() {
            0
        } else {
            (lo + self.area) / 2
        }
    }

    fn search_verdict(&mut self, lo: usize, verdict: Option<bool>) {
        let mid = self.mid(lo);
        self.pc = match verdict {
            Some(true) => {
                self.current = self.probe(mid);
                self.area = mid;
                Pc::Search { lo }
            }
            Some(false) => Pc::Search { lo: mid + 1 },
            // Budget or infrastructure: the seed's audit and confirmation decide the rest.
            None => Pc::AuditGuard,
        };
    }

    fn resume(&mut self, verdict: Option<bool>) {
        match self.pc {
            Pc::Baseline => {
                if verdict == Some(true) {
                    self.baseline_reproduced = true;
                    self.pc = Pc::Search { lo: 0 };
                } else {
                    self.pc = Pc::Done;
                }
            }
            Pc::Search { lo } => self.search_verdict(lo, verdict),
            Pc::AuditSample { i } => {
                if verdict.is_none() {
                    self.after_audit_sampling(i, without(&self.current, i));
                }
            }
            Pc::ConfirmGuard => {
                if verdict.is_none() {
                    self.finish();
                }
            }
            Pc::AuditGuard | Pc::Done => {}
        }
    }

    fn after_audit_sampling(&mut self, i: usize, candidate: Vec<u32>) {
        let outcomes = self.outcome_history.get(&candidate);
        if is_mixed(outcomes) {
            self.flaky_observed = true;
        }
        if outcomes.contains(&true) {
            self.current = candidate;
            self.pc = Pc::AuditGuard;
        } else if count_false(outcomes) < NEGATIVE_PROOF_RUNS {
            self.pc = Pc::ConfirmGuard;
        } else {
            self.pc = Pc::AuditSample { i: i + 1 };
        }
    }

    fn finish(&mut self) {
        let final_outcomes = self.outcome_history.get_or_create(&self.current);
        if is_mixed(final_outcomes) {
            self.flaky_observed = true;
        }
        self.final_confirmed = final_outcomes.len() >= HIGH_CONFIDENCE_RUNS
            && final_outcomes.iter().all(|&reproduced| reproduced);
        if !self.final_confirmed && self.attempts >= self.max_replays {
            self.budget_exhausted = true;
        }
        self.pc = Pc::Done;
    }

    fn search_result(&self) -> SearchResult {
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
            fixed_point_reached: self.fixed_point_reached,
            final_confirmed: self.final_confirmed,
            flaky_observed: self.flaky_observed,
            budget_exhausted: self.budget_exhausted,
            capture_failure: self.capture_failure.clone(),
            runtime_failure: self.runtime_failure.clone(),
            proof,
            outcome_history: self.outcome_history.entries().to_vec(),
        }
    }
}

/// `current[:i] + current[i+1:]`.
fn without(current: &[u32], i: usize) -> Vec<u32> {
    current
        .iter()
        .enumerate()
        .filter(|&(at, _)| at != i)
        .map(|(_, &step)| step)
        .collect()
}
