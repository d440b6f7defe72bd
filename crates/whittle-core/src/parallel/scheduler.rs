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
    wasted: u32,
    /// Verdicts of wasted replays per candidate: (seen reproducing, seen not).
    wasted_verdicts: HashMap<Vec<u32>, (bool, bool)>,
}

impl Scheduler {
    pub fn new(real: Box<dyn Reducer + Send>) -> Scheduler {
        Scheduler {
            real,
            predictor: Predictor::default(),
            round: Vec::new(),
            results: Vec::new(),
            settled: Vec::new(),
            wasted: 0,
            wasted_verdicts: HashMap::new(),
        }
    }

    /// The next round: up to `free` jobs (never more than the budget allows), or none
    /// while a round is still running or once the search is done. The first job is the
    /// reducer's own request; the others follow it on predicted outcomes.
    pub fn dispatch(&mut self, free: usize) -> Vec<Job> {
        if !self.round.is_empty() || free == 0 {
            return Vec::new();
        }
        let limit = free.min(usize::try_from(self.real.budget_left()).unwrap_or(usize::MAX));
        let first = match self.real.next_request() {
            Request::Replay(request) => request,
            Request::Done(_) => return Vec::new(),
        };
        let mut jobs = vec![job(first, false)];
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
            jobs.push(job(request.clone(), true));
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
    /// job that ran; the rest ran in vain and are charged against the budget. A
    /// `CaptureMissing` job never ran, so it is never charged.
    fn consume(&mut self) {
        let jobs = std::mem::take(&mut self.round);
        let results = std::mem::take(&mut self.results);
        self.settled.clear();
        let mut in_step = true;
        let mut charge = 0u32;
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
                charge = charge.saturating_add(1);
            }
            let seen = self.wasted_verdicts.entry(job.candidate.clone());
            match outcome {
                ReplayOutcome::Reproduced => seen.or_default().0 = true,
                ReplayOutcome::NotReproduced { .. } => seen.or_default().1 = true,
                ReplayOutcome::Failed { .. }
                | ReplayOutcome::CaptureMissing { .. }
                | ReplayOutcome::Cancelled => {}
            }
            self.settled.push(Settled {
                job,
                outcome,
                consumed: false,
            });
        }
        self.real.charge_unconsumed(charge);
        self.wasted = self.wasted.saturating_add(charge);
    }

    /// The finished result, once no round is running and the reducer is done.
    pub fn is_done(&mut self) -> Option<SearchResult> {
        if !self.round.is_empty() {
            return None;
        }
        match self.real.next_request() {
            Request::Done(mut result) => {
                if self.wasted_contradicts(&result) {
                    result.flags.flaky_observed = true;
                }
                Some(result)
            }
            Request::Replay(_) => None,
        }
    }

    /// A wasted replay is still a real observation of the app: when it saw one
    /// candidate both reproduce and not (with the used verdicts, or with other wasted
    /// ones), the crash is flaky, as the seed's latch would have said had it run
    /// them one by one. Only the flag changes; the search never reads it.
    fn wasted_contradicts(&self, result: &SearchResult) -> bool {
        if self.wasted_verdicts.is_empty() {
            return false;
        }
        let recorded: HashMap<&[u32], &[bool]> = result
            .outcome_history
            .iter()
            .map(|h| (h.candidate.as_slice(), h.outcomes.as_slice()))
            .collect();
        self.wasted_verdicts.iter().any(|(candidate, &(yes, no))| {
            let used = recorded.get(candidate.as_slice()).copied().unwrap_or(&[]);
            (yes || used.contains(&true)) && (no || used.contains(&false))
        })
    }

    /// Replays that ran but whose verdicts were not used (all charged to the budget).
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

fn job(request: ReplayRequest, speculative: bool) -> Job {
    Job {
        attempt: request.attempt,
        phase: request.phase,
        candidate: request.candidate,
        speculative,
    }
}

fn request_of(job: &Job) -> ReplayRequest {
    ReplayRequest {
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
    }
}
