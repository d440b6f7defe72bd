//! The round-based scheduler: a pure state machine between the reducer and N devices.

use std::collections::HashMap;

use super::predict::{predicted_outcome, Predictor};
use super::{Job, Settled};
use crate::engine::{EngineSnapshot, ReplayOutcome, ReplayRequest, Request, SearchResult};
use crate::strategy::Reducer;

/// Drives a [`Reducer`] on N devices. Use: `dispatch(free)` → run every job (each on
/// its own device) → `complete(attempt, outcome)` for each → repeat until `is_done`.
pub struct Scheduler {
    real: Box<dyn Reducer + Send>,
    predictor: Predictor,
    round: Vec<Job>,
    results: Vec<Option<ReplayOutcome>>,
    settled: Vec<Settled>,
    /// Speculative replays that ran and were not used; never more than `speculation_limit`.
    wasted: u32,
    speculation_limit: u32,
}

impl Scheduler {
    /// Speculation may waste as many replays as the reducer's budget allows it to use
    /// (the default of [`Scheduler::with_speculation_limit`]).
    pub fn new(real: Box<dyn Reducer + Send>) -> Scheduler {
        let speculation_limit = real.snapshot().max_replays;
        Scheduler {
            real,
            predictor: Predictor::default(),
            round: Vec::new(),
            results: Vec::new(),
            settled: Vec::new(),
            wasted: 0,
            speculation_limit,
        }
    }

    /// At most `limit` speculative replays may be wasted over the whole run (0: no
    /// speculation, one job per round). The user's budget never pays for them.
    pub fn with_speculation_limit(mut self, limit: u32) -> Scheduler {
        self.speculation_limit = limit;
        self
    }

    /// The next round: up to `free` jobs (never more than the budget allows, and never
    /// more speculative ones than the speculation limit has left), or none while a
    /// round is still running or once the search is done. The first job is the
    /// reducer's own request; the others follow it on predicted outcomes.
    pub fn dispatch(&mut self, free: usize) -> Vec<Job> {
        if !self.round.is_empty() || free == 0 {
            return Vec::new();
        }
        let speculation_left = self.speculation_limit.saturating_sub(self.wasted);
        let limit = free
            .min(usize::try_from(self.real.budget_left()).unwrap_or(usize::MAX))
            .min(usize::try_from(speculation_left).map_or(usize::MAX, |n| n.saturating_add(1)));
        let first = match self.real.next_request() {
            Request::Replay(request) => request,
            Request::Done(_) => return Vec::new(),
        };
        let mut jobs = vec![self.job(first, false, &[])];
        if limit > 1 {
            self.speculate(&mut jobs, limit);
        }
        self.results = vec![None; jobs.len()];
        self.round.clone_from(&jobs);
        jobs
    }

    /// Runs a clone of the reducer ahead on predicted outcomes. The clone numbers its
    /// requests as the real reducer would if every guess were right.
    fn speculate(&self, jobs: &mut Vec<Job>, limit: usize) {
        let mut clone = self.real.boxed_clone();
        let mut overlay: HashMap<Vec<u32>, bool> = HashMap::new();
        let mut request = request_of(&jobs[0]);
        while jobs.len() < limit {
            let guess = self.predictor.predict(&request, clone.current(), &overlay);
            overlay.insert(request.candidate.clone(), guess);
            clone.record(predicted_outcome(guess));
            request = match clone.next_request() {
                Request::Replay(next) => next,
                Request::Done(_) => break,
            };
            let job = self.job(request.clone(), true, jobs);
            jobs.push(job);
        }
    }

    /// A job for `request`, numbered by how many verdicts its candidate has had before
    /// it if every earlier job of the round is used (`earlier`).
    fn job(&self, request: ReplayRequest, speculative: bool, earlier: &[Job]) -> Job {
        let before = self.real.verdicts_for(&request.candidate)
            + earlier
                .iter()
                .filter(|j| j.candidate == request.candidate)
                .count();
        Job {
            attempt: request.attempt,
            phase: request.phase,
            candidate: request.candidate,
            speculative,
            occurrence: u32::try_from(before).unwrap_or(u32::MAX),
        }
    }

    /// Reports the outcome of one job of the current round; the round is consumed once
    /// every job has reported. Unknown attempts are ignored.
    pub fn complete(&mut self, attempt: u32, outcome: ReplayOutcome) {
        if let Some(at) = self.round.iter().position(|j| j.attempt == attempt) {
            self.results[at] = Some(outcome);
        }
        if !self.round.is_empty() && self.results.iter().all(Option::is_some) {
            self.consume();
        }
    }

    /// Feeds the round's outcomes to the reducer in order while it asks for exactly the
    /// job that ran; the rest ran in vain: counted as wasted (never against the budget)
    /// and their attempt numbers skipped. A `CaptureMissing` job never ran, so it is
    /// not counted.
    fn consume(&mut self) {
        let jobs = std::mem::take(&mut self.round);
        let results = std::mem::take(&mut self.results);
        self.settled.clear();
        let mut in_step = true;
        let mut unused = 0u32;
        for (job, outcome) in jobs.into_iter().zip(results.into_iter().flatten()) {
            if in_step {
                let request = request_of(&job);
                in_step =
                    matches!(self.real.next_request(), Request::Replay(ref r) if *r == request);
                if in_step {
                    self.predictor
                        .learn(&request, self.real.current(), &outcome);
                    self.real.record(outcome.clone());
                    self.settled.push(Settled {
                        job,
                        outcome,
                        consumed: true,
                    });
                    continue;
                }
            }
            if !matches!(outcome, ReplayOutcome::CaptureMissing { .. }) {
                unused = unused.saturating_add(1);
            }
            self.settled.push(Settled {
                job,
                outcome,
                consumed: false,
            });
        }
        self.real.skip_unconsumed(unused);
        self.wasted = self.wasted.saturating_add(unused);
    }

    /// The finished result, once no round is running and the reducer is done: the one
    /// the reducer reached, exactly as on one device. Wasted replays never touch it,
    /// not even its flags: they are reported apart ([`Scheduler::wasted`]).
    pub fn is_done(&mut self) -> Option<SearchResult> {
        if !self.round.is_empty() {
            return None;
        }
        match self.real.next_request() {
            Request::Done(result) => Some(result),
            Request::Replay(_) => None,
        }
    }

    /// Speculative replays that ran but whose verdicts were not used (not in the budget).
    pub fn wasted(&self) -> u32 {
        self.wasted
    }

    /// The jobs of the last consumed round, in attempt order.
    pub fn settled(&self) -> &[Settled] {
        &self.settled
    }

    /// The real reducer's state, as the UI shows it.
    pub fn snapshot(&self) -> EngineSnapshot {
        self.real.snapshot()
    }
}

fn request_of(job: &Job) -> ReplayRequest {
    ReplayRequest {
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
    }
}
