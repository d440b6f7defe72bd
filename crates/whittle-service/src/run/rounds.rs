//! Which jobs the live loop runs next, when each outcome reaches the scheduler, and how
//! both are journaled. Devices take jobs as soon as they are free (streaming); outcomes
//! reach the scheduler in attempt order, each once every earlier job's has, so a run is
//! fully described by its rounds (what was handed out, after how many outcomes) and
//! its verdicts, which is what a resume replays. A resumed run first runs again the
//! jobs the interruption left without a verdict, under their own numbers, and answers
//! the ones after them that do have one from the journal. The live loop and the resume
//! property test both drive the scheduler through this, so what the test proves is
//! what the live loop does.

use std::collections::{BTreeMap, VecDeque};

use whittle_core::engine::ReplayOutcome;
use whittle_core::parallel::{Job, Scheduler};

use super::journal::JournalRound;

/// Jobs to start at once (at most one per free device) and the round they belong to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub round: u32,
    /// How many jobs the whole round has.
    pub round_jobs: u32,
    pub jobs: Vec<Job>,
    /// The round's journal line, to be made durable before its jobs start; `None` when
    /// the batch runs again jobs of a round already journaled (after a resume).
    pub new_round: Option<JournalRound>,
}

/// Where the run is in its rounds and outcomes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundCursor {
    /// The last round dispatched (0 before the first).
    round: u32,
    /// Outcomes given to the scheduler so far.
    completed: u32,
    /// Jobs handed out whose outcome has not reached the scheduler, in attempt order.
    waiting: VecDeque<u32>,
    /// Jobs to run again before any new one (only after a resume), with their round.
    unfinished: Vec<(u32, u32, Job)>,
    /// Outcomes a resume read from the journal for waiting jobs after an unfinished one.
    answered: BTreeMap<u32, ReplayOutcome>,
}

impl RoundCursor {
    /// A cursor after `round`, `completed` outcomes in: `unfinished` jobs (with their
    /// round and its size) run again, `answered` ones are answered from the journal;
    /// both wait, in attempt order, for their outcome to reach the scheduler.
    pub fn resumed(
        round: u32,
        completed: u32,
        unfinished: Vec<(u32, u32, Job)>,
        answered: BTreeMap<u32, ReplayOutcome>,
    ) -> RoundCursor {
        let mut waiting: Vec<u32> = unfinished
            .iter()
            .map(|(_, _, job)| job.attempt)
            .chain(answered.keys().copied())
            .collect();
        waiting.sort_unstable();
        RoundCursor {
            round,
            completed,
            waiting: waiting.into(),
            unfinished,
            answered,
        }
    }

    /// The last round dispatched.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The next batch for `free` devices: jobs to run again first, else a fresh round
    /// from the scheduler. Empty when there is nothing to start now.
    pub fn next(&mut self, scheduler: &mut Scheduler, free: usize) -> Batch {
        if free == 0 {
            return self.empty();
        }
        if !self.unfinished.is_empty() {
            let take = free.min(self.unfinished.len());
            let again: Vec<(u32, u32, Job)> = self.unfinished.drain(..take).collect();
            let (round, round_jobs) = (again[0].0, again[0].1);
            // One batch per round, so each job is journaled under its own.
            let same: Vec<Job> = again
                .iter()
                .take_while(|(r, _, _)| *r == round)
                .map(|(_, _, job)| job.clone())
                .collect();
            let rest: Vec<(u32, u32, Job)> = again.into_iter().skip(same.len()).collect();
            self.unfinished.splice(0..0, rest);
            return Batch {
                round,
                round_jobs,
                jobs: same,
                new_round: None,
            };
        }
        let jobs = scheduler.dispatch(free);
        if jobs.is_empty() {
            return self.empty();
        }
        self.round = self.round.saturating_add(1);
        let round_jobs = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
        self.waiting.extend(jobs.iter().map(|job| job.attempt));
        Batch {
            round: self.round,
            round_jobs,
            new_round: Some(JournalRound {
                round: self.round,
                completed_before: self.completed,
                attempts: jobs.iter().map(|job| job.attempt).collect(),
            }),
            jobs,
        }
    }

    fn empty(&self) -> Batch {
        Batch {
            round: self.round,
            round_jobs: 0,
            jobs: Vec::new(),
            new_round: None,
        }
    }

    /// The next outcome to give the scheduler, in attempt order: the lowest attempt
    /// waiting, when a resume answered it from the journal or its device is done with it
    /// (`finished`, taken out); `None` while that job still runs.
    pub fn take_turn<T>(&mut self, finished: &mut BTreeMap<u32, T>) -> Option<Turn<T>> {
        let attempt = self.waiting.front().copied()?;
        let turn = match self.answered.remove(&attempt) {
            Some(outcome) => Turn::Answered(attempt, outcome),
            None => Turn::Finished(attempt, finished.remove(&attempt)?),
        };
        self.waiting.pop_front();
        self.completed = self.completed.saturating_add(1);
        Some(turn)
    }
}

/// A job whose outcome goes to the scheduler now.
#[derive(Debug)]
pub enum Turn<T> {
    /// Answered from the journal by a resume: nothing ran, nothing is recorded again.
    Answered(u32, ReplayOutcome),
    /// Its device is done with it: what the driver kept of it.
    Finished(u32, T),
}
