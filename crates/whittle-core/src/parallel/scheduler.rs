//! The streaming scheduler: a pure state machine between the reducer and N devices.

use std::collections::BTreeMap;

use super::predict::{predicted_outcome, Predictor};
use super::tree::{verdict_of, GuessTree, Node, Slot};
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
    /// The jobs in flight or finished but not yet consumed: the root is the real
    /// reducer's own request, each other node the request it makes once the nodes
    /// above are consumed with the verdicts the path assumes.
    tree: GuessTree,
    /// Jobs still running whose branch was cut: wasted when they report.
    doomed: BTreeMap<u32, Job>,
    /// Attempts doomed while running since the last `take_unneeded`: a driver may stop
    /// them halfway and free their devices.
    unneeded: Vec<u32>,
    /// Jobs settled since the last `take_settled`, in the order they settled.
    settled: Vec<Settled>,
    /// Speculative replays that ran and were not used; never more than `speculation_limit`.
    wasted: u32,
    speculation_limit: u32,
    /// The highest attempt number handed out (0 before the first): jobs are numbered
    /// in the order they are handed out, and the real reducer skips the numbers of the
    /// jobs it does not use before it asks for the next one it does.
    handed_out: u32,
}

impl Scheduler {
    /// Speculation may waste as many replays as the reducer's budget allows it to use
    /// (the default of [`Scheduler::with_speculation_limit`]).
    pub fn new(real: Box<dyn Reducer + Send>) -> Scheduler {
        let speculation_limit = real.snapshot().max_replays;
        Scheduler {
            real,
            predictor: Predictor::default(),
            tree: GuessTree::default(),
            doomed: BTreeMap::new(),
            unneeded: Vec::new(),
            settled: Vec::new(),
            wasted: 0,
            speculation_limit,
            handed_out: 0,
        }
    }

    /// At most `limit` speculative replays may be wasted over the whole run (0: no
    /// speculation, one job at a time). The user's budget never pays for them.
    pub fn with_speculation_limit(mut self, limit: u32) -> Scheduler {
        self.speculation_limit = limit;
        self
    }

    /// Up to `free` new jobs, one per free device: the reducer's own request when none
    /// is in flight, then guesses, the likeliest to be used first (see [`GuessTree`]).
    /// Never a guess deeper than the budget allows (counting the jobs above it), never
    /// more speculative jobs than the speculation limit has left (counting every one
    /// that might still be wasted), and none once the search is done. A dispatch
    /// depends only on what the scheduler was told before, not on `free` beyond how
    /// many it hands out, so a resume that replays it with that number gets the same jobs.
    pub fn dispatch(&mut self, free: usize) -> Vec<Job> {
        let mut jobs = Vec::new();
        if free == 0 {
            return jobs;
        }
        let budget_left = usize::try_from(self.real.budget_left()).unwrap_or(usize::MAX);
        let at_risk = u64::from(self.wasted)
            + self.doomed.len() as u64
            + self.tree.len().saturating_sub(1) as u64;
        let mut speculation_left = u64::from(self.speculation_limit).saturating_sub(at_risk);
        if self.tree.is_empty() {
            if budget_left == 0 {
                return jobs;
            }
            let Some(request) = self.real_request(self.handed_out.saturating_add(1)) else {
                return jobs;
            };
            let occurrence = self.real.verdicts_for(&request.candidate);
            let job = job(request, false, occurrence);
            self.handed_out = job.attempt;
            self.tree.plant(job.clone(), self.real.current().to_vec());
            jobs.push(job);
        }
        while jobs.len() < free && speculation_left > 0 {
            let Some(slot) = self.best_slot(budget_left) else {
                break;
            };
            if slot.used < least_chance(speculation_left, budget_left) {
                // A free device waits rather than spend the speculation limit on it.
                break;
            }
            let Some((request, current, occurrence)) = self.ask_after(slot.parent, slot.verdict)
            else {
                // The search ends there: remember it, and look for another place.
                if let Some(parent) = self.tree.get_mut(slot.parent) {
                    parent.ends[usize::from(slot.verdict)] = true;
                }
                continue;
            };
            let mut job = job(request, true, occurrence);
            job.attempt = self.handed_out.saturating_add(1);
            self.handed_out = job.attempt;
            self.tree
                .graft(slot.parent, slot.verdict, job.clone(), current);
            jobs.push(job);
            speculation_left -= 1;
        }
        jobs
    }

    /// The real reducer's request, numbered `attempt` (the numbers of jobs it will not
    /// use are skipped first); `None` when it is done.
    fn real_request(&mut self, attempt: u32) -> Option<ReplayRequest> {
        let Request::Replay(request) = self.real.next_request() else {
            return None;
        };
        if request.attempt >= attempt {
            return Some(request);
        }
        self.real.skip_unconsumed(attempt - request.attempt);
        match self.real.next_request() {
            Request::Replay(request) => Some(request),
            Request::Done(_) => None,
        }
    }

    /// The place to grow the tree: the likeliest to be used, then the shallowest, then
    /// the oldest parent (a total order, so a dispatch is deterministic).
    fn best_slot(&self, budget_left: usize) -> Option<Slot> {
        let predictor = &self.predictor;
        self.tree
            .slots(|node, overlay| {
                predictor
                    .guess(&request_of(&node.job), &node.current, overlay)
                    .p_reproduced()
            })
            .into_iter()
            // A job at depth d is used after d others: only while the budget lasts.
            .filter(|slot| slot.depth < budget_left)
            .min_by(|a, b| {
                b.used
                    .total_cmp(&a.used)
                    .then(a.depth.cmp(&b.depth))
                    .then(a.parent.cmp(&b.parent))
                    .then(b.verdict.cmp(&a.verdict))
            })
    }

    /// What a clone of the real reducer asks once the nodes from the root down to
    /// `parent` are consumed with what is known of each (its outcome, else the verdict
    /// the path assumes) and `parent` gets `verdict`: the request, the clone's current
    /// candidate, and how many verdicts that candidate will have had before it. `None`
    /// when the search asks nothing more there.
    fn ask_after(&self, parent: u32, verdict: bool) -> Option<(ReplayRequest, Vec<u32>, usize)> {
        let path = self.tree.path(parent);
        let verdicts = self.tree.verdicts_along(&path, verdict);
        let mut clone = self.real.boxed_clone();
        let mut outcomes = Vec::with_capacity(path.len());
        for (at, &assumed) in path.iter().zip(&verdicts) {
            let node = self.tree.get(*at)?;
            let outcome = match &node.result {
                Some(outcome) => outcome.clone(),
                None => predicted_outcome(assumed),
            };
            let _ = clone.next_request();
            clone.record(outcome.clone());
            outcomes.push((node.job.candidate.clone(), outcome));
        }
        let Request::Replay(request) = clone.next_request() else {
            return None;
        };
        let earlier = outcomes
            .iter()
            .filter(|(candidate, outcome)| {
                *candidate == request.candidate && verdict_of(outcome).is_some()
            })
            .count();
        let occurrence = self.real.verdicts_for(&request.candidate) + earlier;
        Some((request, clone.current().to_vec(), occurrence))
    }

    /// Reports the outcome of one dispatched job, in any order. The tree's finished
    /// root is consumed at once, and the path below it as far as it is finished; the
    /// guesses that assumed another outcome of this job are cut.
    pub fn complete(&mut self, attempt: u32, outcome: ReplayOutcome) {
        if let Some(job) = self.doomed.remove(&attempt) {
            self.waste(job, outcome);
            return;
        }
        let Some(node) = self.tree.get_mut(attempt) else {
            return;
        };
        if node.result.is_some() {
            return;
        }
        node.result = Some(outcome.clone());
        self.prune(attempt, verdict_of(&outcome));
        self.consume_finished_root();
    }

    /// Cuts the guesses below a finished node that assumed another outcome. A lone
    /// guess on the wrong verdict is kept when the search asks the very same job on
    /// the right one (only its own guesses are cut).
    fn prune(&mut self, attempt: u32, verdict: Option<bool>) {
        let Some(node) = self.tree.get(attempt) else {
            return;
        };
        let children = node.children;
        let Some(verdict) = verdict else {
            for child in children.iter().flatten() {
                let cut = self.tree.cut(*child);
                self.doom(cut);
            }
            return;
        };
        let Some(wrong) = children[usize::from(!verdict)] else {
            return;
        };
        if children[usize::from(verdict)].is_none()
            && self.same_job_either_way(attempt, verdict, wrong)
        {
            let cut = self.tree.move_child(attempt, !verdict);
            self.doom(cut);
        } else {
            let cut = self.tree.cut(wrong);
            self.doom(cut);
        }
    }

    /// Whether the search asks the job `child` (guessed on the other verdict of
    /// `parent`) when `parent` gets `verdict`.
    fn same_job_either_way(&self, parent: u32, verdict: bool, child: u32) -> bool {
        let Some(child) = self.tree.get(child) else {
            return false;
        };
        self.ask_after(parent, verdict)
            .is_some_and(|(request, _, occurrence)| {
                request.phase == child.job.phase
                    && request.candidate == child.job.candidate
                    && u32::try_from(occurrence).ok() == Some(child.job.occurrence)
            })
    }

    /// Jobs whose branch was cut: finished ones are wasted now, the others when they
    /// report.
    fn doom(&mut self, nodes: Vec<Node>) {
        for node in nodes {
            match node.result {
                Some(outcome) => self.waste(node.job, outcome),
                None => {
                    self.unneeded.push(node.job.attempt);
                    self.doomed.insert(node.job.attempt, node.job);
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

    /// Feeds finished roots to the reducer, each the very request it makes (the tree
    /// is cut where it would not be, so this always holds; should it not, the whole
    /// tree is doomed rather than a verdict recorded for another request).
    fn consume_finished_root(&mut self) {
        loop {
            let Some(root) = self.tree.root() else {
                return;
            };
            let Some(outcome) = root.result.clone() else {
                return;
            };
            let expected = request_of(&root.job);
            if self.real_request(expected.attempt).as_ref() != Some(&expected) {
                let all = self.tree.clear();
                self.doom(all);
                return;
            }
            let Some((root, cut)) = self.tree.pop_root(verdict_of(&outcome)) else {
                return;
            };
            self.doom(cut);
            self.predictor
                .learn(&expected, self.real.current(), &outcome);
            self.real.record(outcome.clone());
            self.settled.push(Settled {
                job: root.job,
                outcome,
                consumed: true,
            });
        }
    }

    /// The finished result, once nothing is in flight and the reducer is done: the one
    /// the reducer reached, exactly as on one device. Wasted replays never touch it,
    /// not even its flags: they are reported apart ([`Scheduler::wasted`]).
    pub fn is_done(&mut self) -> Option<SearchResult> {
        if !self.tree.is_empty() || !self.doomed.is_empty() {
            return None;
        }
        match self.real.next_request() {
            Request::Done(result) => Some(result),
            Request::Replay(_) => None,
        }
    }

    /// The running jobs found unneeded since the last call (their branch was cut), in
    /// attempt order: whatever they show, the search will not use it. A driver may stop
    /// each halfway and report it [`ReplayOutcome::Cancelled`] (it is wasted either way),
    /// so its device takes a job the search may use sooner; one that lets it run just
    /// reports it as it ends.
    pub fn take_unneeded(&mut self) -> Vec<u32> {
        let mut unneeded = std::mem::take(&mut self.unneeded);
        unneeded.retain(|attempt| self.doomed.contains_key(attempt));
        unneeded.sort_unstable();
        unneeded
    }

    /// Whether `attempt` is running on a branch that was cut (not reported yet): the
    /// search will not use it.
    pub fn is_unneeded(&self, attempt: u32) -> bool {
        self.doomed.contains_key(&attempt)
    }

    /// Jobs dispatched and not yet reported.
    pub fn in_flight(&self) -> usize {
        self.tree.running() + self.doomed.len()
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

/// Below this chance of being used a guess is never run: it would almost surely be
/// wasted, and even where the limit allows it, its device is better free for the job
/// the search asks once the guesses above it are settled.
const LEAST_CHANCE: f64 = 0.1;
/// How much surer than [`LEAST_CHANCE`] a guess must be as the speculation limit runs
/// short (see [`least_chance`]); measured on the bench suite (docs/performance.md).
const PACING: f64 = 0.7;

/// The least chance of being used a guess needs when `speculation_left` replays may
/// still be wasted and the search may still use `budget_left`. While the limit left
/// covers the budget left, any guess worth its device runs; as it falls short (coin
/// tosses waste about one replay per one used), only the surer guesses run, so the
/// limit lasts to the end of the search instead of running out halfway and leaving it
/// on one device (the audit and confirmation, the surest guesses of all, come last).
fn least_chance(speculation_left: u64, budget_left: usize) -> f64 {
    // Both stay far below 2^52: the conversions are exact.
    let covered = (speculation_left as f64 / budget_left.max(1) as f64).min(1.0);
    (PACING * (1.0 - covered)).max(LEAST_CHANCE)
}

fn job(request: ReplayRequest, speculative: bool, occurrence: usize) -> Job {
    Job {
        attempt: request.attempt,
        phase: request.phase,
        candidate: request.candidate,
        speculative,
        occurrence: u32::try_from(occurrence).unwrap_or(u32::MAX),
    }
}

fn request_of(job: &Job) -> ReplayRequest {
    ReplayRequest {
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MissReason, Phase};
    use crate::strategy::SearchStrategy;

    fn answer(reproduced: bool) -> ReplayOutcome {
        if reproduced {
            ReplayOutcome::Reproduced
        } else {
            ReplayOutcome::NotReproduced {
                reason: MissReason::NoCrash,
            }
        }
    }

    /// `binary` on 16 steps, its baseline and first query (the first half, which
    /// rarely reproduces, as the seed's) answered: a scheduler in mid-bisection.
    fn bisecting() -> Scheduler {
        let mut s = Scheduler::new(
            SearchStrategy::Binary
                .reducer((1..=16).collect(), 30)
                .unwrap(),
        );
        for (phase, reproduced) in [(Phase::Baseline, true), (Phase::Bisect, false)] {
            let job = s.dispatch(1).remove(0);
            assert_eq!(job.phase, phase);
            s.complete(job.attempt, answer(reproduced));
        }
        let _ = s.take_settled();
        s
    }

    #[test]
    fn three_devices_run_a_query_and_both_of_its_answers() {
        for root_reproduces in [true, false] {
            let mut s = bisecting();
            let jobs = s.dispatch(3);
            assert_eq!(jobs.len(), 3);
            assert!(jobs.iter().all(|j| j.phase == Phase::Bisect));
            assert!(!jobs[0].speculative && jobs[1].speculative && jobs[2].speculative);
            assert_ne!(jobs[1].candidate, jobs[2].candidate, "one job per answer");
            // Whatever the query says, the next one the search asks is already running:
            // answering it and then both guesses consumes exactly two.
            s.complete(jobs[0].attempt, answer(root_reproduces));
            // The guess on the other answer is unneeded the moment the query reports,
            // and told once.
            let unneeded = s.take_unneeded();
            assert_eq!(unneeded.len(), 1);
            assert!(s.is_unneeded(unneeded[0]) && s.take_unneeded().is_empty());
            assert!(jobs[1..].iter().any(|j| j.attempt == unneeded[0]));
            for job in &jobs[1..] {
                s.complete(job.attempt, answer(false));
            }
            let settled = s.take_settled();
            let used: Vec<u32> = settled
                .iter()
                .filter(|x| x.consumed)
                .map(|x| x.job.attempt)
                .collect();
            assert_eq!(used.len(), 2, "{settled:?}");
            assert_eq!((used[0], s.wasted()), (jobs[0].attempt, 1));
        }
    }

    #[test]
    fn a_guess_must_be_surer_as_the_speculation_limit_runs_short() {
        assert_eq!(least_chance(30, 30), LEAST_CHANCE);
        assert_eq!(least_chance(2000, 10), LEAST_CHANCE);
        assert!((least_chance(15, 30) - PACING / 2.0).abs() < 1e-12);
        assert!((least_chance(0, 30) - PACING).abs() < 1e-12);
        assert!(least_chance(0, 0) <= 1.0);
    }
}
