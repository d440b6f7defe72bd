//! The seed's Phase 3 (`try_candidate`, baseline, bisect/one-by-one search loop,
//! fixed-point audit, final confirmation) as a resumable state machine.
//!
//! Each `Pc` value is a point in the seed's pseudo-code; the comments quote the line it
//! stands for. `try_candidate` is split in two: [`Engine::try_candidate`] runs the checks
//! that may return null without replaying (budget, then the halt that stands in for the
//! capture check), and [`Engine::record`] runs the rest once the driver has replayed.

use super::history::{count_false, is_mixed, OutcomeHistory};
use super::{
    EngineError, EngineSnapshot, Outcome, Phase, ProofRow, ReplayRequest, Request, SearchResult,
};

/// A single deletion must fail this many times in a row to prove it cannot be deleted.
pub const NEGATIVE_PROOF_RUNS: usize = 3;
/// The final candidate must reproduce this many times to be `final_confirmed`.
pub const HIGH_CONFIDENCE_RUNS: usize = 3;

/// Where the pseudo-code is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pc {
    /// `baseline = try_candidate(current)`
    Baseline,
    /// `while baseline.reproduced and len(current) >= 2 and !budget_exhausted`
    SearchGuard,
    /// `for cand in [current[:mid], current[mid:]]`, at half 0 or 1
    Bisect {
        half: usize,
    },
    /// `for i in range(len(current))` of the one-by-one deletion loop
    OneByOne {
        i: usize,
    },
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

/// The reduction engine. Pure: the driver performs every replay and reports back.
#[derive(Debug, Clone)]
pub struct Engine {
    max_replays: u32,
    current: Vec<u32>,
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

impl Engine {
    /// `replayable`: the replayable step indexes in original order (launch setup excluded).
    pub fn new(replayable: Vec<u32>, max_replays: u32) -> Result<Engine, EngineError> {
        if max_replays == 0 {
            return Err(EngineError::InvalidBudget { max_replays });
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(&step) = replayable.iter().find(|&&step| !seen.insert(step)) {
            return Err(EngineError::DuplicateStep { step });
        }
        Ok(Engine {
            max_replays,
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

    /// The replay to run next, or the finished result. Calling it again without
    /// [`Engine::record`] returns the same request.
    pub fn next_request(&mut self) -> Request {
        self.run_until_replay_or_done();
        match &self.pending {
            Some(request) => Request::Replay(request.clone()),
            None => Request::Done(self.search_result()),
        }
    }

    /// Answers the pending replay (the one [`Engine::next_request`] returns). Ignored once
    /// the search is done.
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

    /// The rest of `try_candidate` after a replay that produced a verdict.
    fn count_verdict(&mut self, candidate: &[u32], reproduced: bool) -> bool {
        self.attempts = self.attempts.saturating_add(1);
        self.outcome_history.append(candidate, reproduced);
        if is_mixed(self.outcome_history.get(candidate)) {
            self.flaky_observed = true;
        }
        reproduced
    }

    /// The checks of `try_candidate` that return null before any replay. `false` = null.
    fn try_candidate(&mut self, phase: Phase, candidate: Vec<u32>) -> bool {
        if self.attempts >= self.max_replays {
            self.budget_exhausted = true;
            return false;
        }
        // Stands where the seed checks the capture: once the capture is gone, or a runtime
        // failure made the run unusable, no further replay is issued.
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

    /// Calls `try_candidate` and, when it returns null at once, continues with null.
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

    /// Advances from `pc` until it issues a replay or moves to another point.
    fn step(&mut self) {
        match self.pc {
            Pc::Baseline => self.attempt(Phase::Baseline, self.current.clone()),
            Pc::SearchGuard => {
                self.pc = if self.current.len() >= 2 && !self.budget_exhausted {
                    Pc::Bisect { half: 0 }
                } else {
                    Pc::AuditGuard
                };
            }
            Pc::Bisect { half } => self.attempt(Phase::Bisect, half_of(&self.current, half)),
            Pc::OneByOne { i } => {
                if i >= self.current.len() {
                    // `if not progress: break` — a single negative only ends the search.
                    self.pc = Pc::AuditGuard;
                } else if self.attempts >= self.max_replays {
                    self.budget_exhausted = true;
                    self.pc = Pc::AuditGuard;
                } else {
                    self.attempt(Phase::OneByOne, without(&self.current, i));
                }
            }
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
                    // The `for` ran to its end: every deletion has consistent negatives.
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

    /// Continues the pseudo-code after `try_candidate` returned `verdict` (None = null).
    fn resume(&mut self, verdict: Option<bool>) {
        match self.pc {
            Pc::Baseline => {
                if verdict == Some(true) {
                    self.baseline_reproduced = true;
                    self.pc = Pc::SearchGuard;
                } else {
                    // "停止 ddmin": no search, no audit, no confirmation, no minimal result.
                    self.pc = Pc::Done;
                }
            }
            Pc::Bisect { half } => {
                self.pc = match verdict {
                    Some(true) => {
                        self.current = half_of(&self.current, half);
                        Pc::SearchGuard
                    }
                    Some(false) if half == 0 => Pc::Bisect { half: 1 },
                    // `if result == null: break`, or both halves failed.
                    _ => Pc::OneByOne { i: 0 },
                };
            }
            Pc::OneByOne { i } => {
                if verdict == Some(true) {
                    self.current = without(&self.current, i);
                    self.pc = Pc::SearchGuard;
                } else {
                    self.pc = Pc::OneByOne { i: i + 1 };
                }
            }
            Pc::AuditSample { i } => {
                // A verdict re-enters the sampling `while`; null is `proof_complete=false; break`.
                if verdict.is_none() {
                    self.after_audit_sampling(i, without(&self.current, i));
                }
            }
            Pc::ConfirmGuard => {
                if verdict.is_none() {
                    self.finish();
                }
            }
            // These points never issue a replay.
            Pc::SearchGuard | Pc::AuditGuard | Pc::Done => {}
        }
    }

    /// The checks after the audit's sampling `while` for deletion `i`.
    fn after_audit_sampling(&mut self, i: usize, candidate: Vec<u32>) {
        let outcomes = self.outcome_history.get(&candidate);
        if is_mixed(outcomes) {
            self.flaky_observed = true;
        }
        if outcomes.contains(&true) {
            // audit_progress: current gets strictly shorter; audit the new deletions.
            self.current = candidate;
            self.pc = Pc::AuditGuard;
        } else if count_false(outcomes) < NEGATIVE_PROOF_RUNS {
            // proof_complete = false: no fixed point.
            self.pc = Pc::ConfirmGuard;
        } else {
            self.pc = Pc::AuditSample { i: i + 1 };
        }
    }

    /// After the confirmation loop: `final_confirmed`, then the late `budget_exhausted`.
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

/// `current[:mid]` or `current[mid:]` with `mid = len // 2`.
fn half_of(current: &[u32], half: usize) -> Vec<u32> {
    let mid = current.len() / 2;
    if half == 0 {
        current[..mid].to_vec()
    } else {
        current[mid..].to_vec()
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
