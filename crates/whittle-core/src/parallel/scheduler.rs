//! The streaming scheduler: a pure state machine between the reducer and N devices.

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::predict::{predicted_outcome, Predictor};
use super::{Job, Settled};
use crate::engine::{EngineSnapshot, ReplayOutcome, ReplayRequest, Request, SearchResult};
use crate::strategy::Reducer;

/// Drives a [`Reducer`] on N devices. Use: `dispatch(free)` whenever devices are free
/// → run each job on its own device → `complete(attempt, outcome)` as each finishes →
/// `take_settled()` for what became of them → repeat until `is_done`. A driver may
/// also dispatch only when nothing runs and complete in attempt order (rounds): the
/// decisions are the same, only later.
pub struct Scheduler {
    real: Box<dyn Reducer + Send>,
    predictor: Predictor,
    /// The jobs in flight or finished but not yet consumed, each the request the real
    /// reducer will make once every earlier one is consumed with the outcome assumed
    /// for it: `chain[0]` is the real reducer's own request.
    chain: VecDeque<Link>,
    /// Jobs still running whose chain broke before them: wasted when they report.
    doomed: BTreeMap<u32, Job>,
    /// Jobs settled since the last `take_settled`, in the order they settled.
    settled: Vec<Settled>,
    /// Speculative replays that ran and were not used; never more than `speculation_limit`.
    wasted: u32,
    speculation_limit: u32,
}

/// One job of the chain.
#[derive(Debug, Clone)]
struct Link {
    job: Job,
    /// Its outcome, once its device reported it.
    result: Option<ReplayOutcome>,
    /// The outcome the next link was speculated on (set when a next link is made).
    assumed: Option<ReplayOutcome>,
    /// Attempt numbers to skip once this link is consumed: the doomed jobs dispatched
    /// after it, so the real reducer numbers its next request after them.
    skip_after: u32,
}

impl Link {
    /// What the reducer will record for this link, as far as is known now.
    fn known_outcome(&self) -> Option<&ReplayOutcome> {
        self.result.as_ref().or(self.assumed.as_ref())
    }
}

impl Scheduler {
    /// Speculation may waste as many replays as the reducer's budget allows it to use
    /// (the default of [`Scheduler::with_speculation_limit`]).
    pub fn new(real: Box<dyn Reducer + Send>) -> Scheduler {
        let speculation_limit = real.snapshot().max_replays;
        Scheduler {
            real,
            predictor: Predictor::default(),
            chain: VecDeque::new(),
            doomed: BTreeMap::new(),
            settled: Vec::new(),
            wasted: 0,
            speculation_limit,
        }
    }

    /// At most `limit` speculative replays may be wasted over the whole run (0: no
    /// speculation, one job at a time). The user's budget never pays for them.
    pub fn with_speculation_limit(mut self, limit: u32) -> Scheduler {
        self.speculation_limit = limit;
        self
    }

    /// Up to `free` new jobs, one per free device: the reducer's own request when none
    /// is in flight, then requests further down the chain on predicted outcomes. Never
    /// more than the budget allows (counting the chain in flight), never more
    /// speculative jobs than the speculation limit has left (counting every one that
    /// might still be wasted), and none once the search is done.
    pub fn dispatch(&mut self, free: usize) -> Vec<Job> {
        let mut jobs = Vec::new();
        if free == 0 {
            return jobs;
        }
        let budget_left = usize::try_from(self.real.budget_left()).unwrap_or(usize::MAX);
        let at_risk = u64::from(self.wasted)
            + self.doomed.len() as u64
            + self.chain.len().saturating_sub(1) as u64;
        let mut speculation_left = u64::from(self.speculation_limit).saturating_sub(at_risk);
        if self.chain.is_empty() {
            if budget_left == 0 {
                return jobs;
            }
            let first = match self.real.next_request() {
                Request::Replay(request) => request,
                Request::Done(_) => return jobs,
            };
            let job = self.job(first, false);
            self.chain.push_back(link(job.clone()));
            jobs.push(job);
        }
        if jobs.len() == free || speculation_left == 0 || self.chain.len() >= budget_left {
            return jobs;
        }
        let (mut clone, mut overlay) = self.ahead();
        while jobs.len() < free && speculation_left > 0 && self.chain.len() < budget_left {
            let last = self.chain.back_mut().expect("the chain is not empty here");
            let outcome = match &last.result {
                Some(outcome) => outcome.clone(),
                None => {
                    let request = request_of(&last.job);
                    let guess = self.predictor.predict(&request, clone.current(), &overlay);
                    predicted_outcome(guess)
                }
            };
            let _ = clone.next_request();
            if let Some(reproduced) = reproduced(&outcome) {
                overlay.insert(last.job.candidate.clone(), reproduced);
            }
            clone.record(outcome.clone());
            clone.skip_unconsumed(last.skip_after);
            let request = match clone.next_request() {
                Request::Replay(next) => next,
                Request::Done(_) => break,
            };
            // Only now is anything speculated on it: a dispatch that adds nothing
            // leaves the scheduler as it was (a resume replays dispatches exactly).
            last.assumed = Some(outcome);
            let job = self.job(request, true);
            self.chain.push_back(link(job.clone()));
            jobs.push(job);
            speculation_left -= 1;
        }
        jobs
    }

    /// A clone of the real reducer advanced through the chain on what is known of each
    /// link (its outcome, else the one assumed for it), stopping before the last link's
    /// outcome is recorded, with the chain's verdicts by candidate.
    fn ahead(&self) -> (Box<dyn Reducer + Send>, HashMap<Vec<u32>, bool>) {
        let mut clone = self.real.boxed_clone();
        let mut overlay = HashMap::new();
        let before_last = self.chain.len().saturating_sub(1);
        for link in self.chain.iter().take(before_last) {
            let outcome = link
                .known_outcome()
                .cloned()
                .expect("every link but the last has an outcome assumed");
            let _ = clone.next_request();
            if let Some(reproduced) = reproduced(&outcome) {
                overlay.insert(link.job.candidate.clone(), reproduced);
            }
            clone.record(outcome);
            clone.skip_unconsumed(link.skip_after);
        }
        (clone, overlay)
    }

    /// A job for `request` at the end of the chain, numbered by how many verdicts its
    /// candidate will have had before it once the chain before it is consumed.
    fn job(&self, request: ReplayRequest, speculative: bool) -> Job {
        let before = self.real.verdicts_for(&request.candidate)
            + self
                .chain
                .iter()
                .filter(|l| l.job.candidate == request.candidate)
                .count();
        Job {
            attempt: request.attempt,
            phase: request.phase,
            candidate: request.candidate,
            speculative,
            occurrence: u32::try_from(before).unwrap_or(u32::MAX),
        }
    }

    /// Reports the outcome of one dispatched job, in any order. The chain's finished
    /// prefix is consumed at once; an outcome other than the one the chain assumed
    /// dooms the links that no longer follow from it. Unknown attempts are ignored.
    pub fn complete(&mut self, attempt: u32, outcome: ReplayOutcome) {
        if let Some(job) = self.doomed.remove(&attempt) {
            self.waste(job, outcome);
            return;
        }
        let Some(at) = self.chain.iter().position(|l| l.job.attempt == attempt) else {
            return;
        };
        let link = &mut self.chain[at];
        if link.result.is_some() {
            return;
        }
        let broke = link.assumed.as_ref().is_some_and(|a| *a != outcome);
        link.result = Some(outcome);
        if broke {
            self.cut_where_the_chain_breaks();
        }
        self.consume_finished_prefix();
    }

    /// Walks a clone of the real reducer along the chain on what is known; from the
    /// first link it would not ask for, the rest is doomed. Their numbers are skipped
    /// right after the last link that stands, as the real reducer will do.
    fn cut_where_the_chain_breaks(&mut self) {
        let mut clone = self.real.boxed_clone();
        let mut keep = self.chain.len();
        for (at, link) in self.chain.iter().enumerate() {
            let asks = matches!(clone.next_request(), Request::Replay(ref r) if *r == request_of(&link.job));
            if !asks {
                keep = at;
                break;
            }
            match link.known_outcome() {
                Some(outcome) => {
                    clone.record(outcome.clone());
                    clone.skip_unconsumed(link.skip_after);
                }
                None => break,
            }
        }
        self.doom_from(keep);
    }

    /// Dooms the chain from `keep` on: finished jobs are wasted now, the others when
    /// they report.
    fn doom_from(&mut self, keep: usize) {
        if keep >= self.chain.len() {
            return;
        }
        let cut: Vec<Link> = self.chain.drain(keep..).collect();
        // Their own numbers, and those they were to skip (jobs doomed earlier).
        let skipped = cut.iter().fold(0u32, |n, link| {
            n.saturating_add(1).saturating_add(link.skip_after)
        });
        match self.chain.back_mut() {
            Some(last) => {
                last.skip_after = last.skip_after.saturating_add(skipped);
                last.assumed = None;
            }
            None => self.real.skip_unconsumed(skipped),
        }
        for link in cut {
            match link.result {
                Some(outcome) => self.waste(link.job, outcome),
                None => {
                    self.doomed.insert(link.job.attempt, link.job);
                }
            }
        }
    }

    /// A job that ran in vain: counted as wasted (never against the budget). A
    /// `CaptureMissing` job never ran, so it is not counted.
    fn waste(&mut self, job: Job, outcome: ReplayOutcome) {
        if !matches!(outcome, ReplayOutcome::CaptureMissing { .. }) {
            self.wasted = self.wasted.saturating_add(1);
        }
        self.settled.push(Settled {
            job,
            outcome,
            consumed: false,
        });
    }

    /// Feeds the chain's finished links to the reducer in order, each the very request
    /// it makes (the chain is cut where it would not be, so this always holds; should
    /// it not, the rest is doomed rather than a verdict recorded for another request).
    fn consume_finished_prefix(&mut self) {
        while self.chain.front().is_some_and(|l| l.result.is_some()) {
            let request = request_of(&self.chain[0].job);
            let asks = matches!(self.real.next_request(), Request::Replay(ref r) if *r == request);
            if !asks {
                self.doom_from(0);
                return;
            }
            let link = self.chain.pop_front().expect("checked above");
            let outcome = link.result.expect("checked above");
            self.predictor
                .learn(&request, self.real.current(), &outcome);
            self.real.record(outcome.clone());
            self.real.skip_unconsumed(link.skip_after);
            self.settled.push(Settled {
                job: link.job,
                outcome,
                consumed: true,
            });
        }
    }

    /// The finished result, once nothing is in flight and the reducer is done: the one
    /// the reducer reached, exactly as on one device. Wasted replays never touch it,
    /// not even its flags: they are reported apart ([`Scheduler::wasted`]).
    pub fn is_done(&mut self) -> Option<SearchResult> {
        if !self.chain.is_empty() || !self.doomed.is_empty() {
            return None;
        }
        match self.real.next_request() {
            Request::Done(result) => Some(result),
            Request::Replay(_) => None,
        }
    }

    /// Jobs dispatched and not yet reported.
    pub fn in_flight(&self) -> usize {
        self.chain.iter().filter(|l| l.result.is_none()).count() + self.doomed.len()
    }

    /// Speculative replays that ran but whose verdicts were not used (not in the budget).
    pub fn wasted(&self) -> u32 {
        self.wasted
    }

    /// The jobs settled since the last call, consumed or wasted, in the order they
    /// settled (consumed ones in attempt order).
    pub fn take_settled(&mut self) -> Vec<Settled> {
        std::mem::take(&mut self.settled)
    }

    /// The real reducer's state, as the UI shows it.
    pub fn snapshot(&self) -> EngineSnapshot {
        self.real.snapshot()
    }
}

fn link(job: Job) -> Link {
    Link {
        job,
        result: None,
        assumed: None,
        skip_after: 0,
    }
}

fn reproduced(outcome: &ReplayOutcome) -> Option<bool> {
    match outcome {
        ReplayOutcome::Reproduced => Some(true),
        ReplayOutcome::NotReproduced { .. } => Some(false),
        _ => None,
    }
}

fn request_of(job: &Job) -> ReplayRequest {
    ReplayRequest {
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
    }
}
