//! Which jobs the live loop runs next, and under which round they are journaled. A new
//! run only dispatches fresh rounds; a resumed run first finishes the round the
//! interruption cut short (its jobs that have no verdict yet, under their original
//! attempt numbers), then dispatches fresh rounds as before. The live loop and the
//! resume property test both drive the scheduler through this, so what the test proves
//! is what the live loop does.

use whittle_core::parallel::{Job, Scheduler};

/// A batch of jobs to run at once (at most one per device) and the round they belong to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub round: u32,
    /// How many jobs the whole round has (a resume re-dispatches it with this size).
    pub round_jobs: u32,
    pub jobs: Vec<Job>,
}

/// Where the run is in its rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundCursor {
    /// The last round dispatched (0 before the first).
    round: u32,
    round_jobs: u32,
    /// Jobs of the current round still to run (only after a resume).
    unfinished: Vec<Job>,
}

impl RoundCursor {
    /// A cursor after `round` (of `round_jobs` jobs) whose `unfinished` jobs still have
    /// to run; the scheduler holds that round open.
    pub fn resumed(round: u32, round_jobs: u32, unfinished: Vec<Job>) -> RoundCursor {
        RoundCursor {
            round,
            round_jobs,
            unfinished,
        }
    }

    /// The last round dispatched.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The next batch for `free` devices: the open round's unfinished jobs first, else
    /// a fresh round from the scheduler. Empty when the scheduler has nothing to run.
    pub fn next(&mut self, scheduler: &mut Scheduler, free: usize) -> Batch {
        let free = free.max(1);
        if !self.unfinished.is_empty() {
            let take = free.min(self.unfinished.len());
            let jobs: Vec<Job> = self.unfinished.drain(..take).collect();
            return Batch {
                round: self.round,
                round_jobs: self.round_jobs,
                jobs,
            };
        }
        let jobs = scheduler.dispatch(free);
        if jobs.is_empty() {
            return Batch {
                round: self.round,
                round_jobs: 0,
                jobs,
            };
        }
        self.round = self.round.saturating_add(1);
        self.round_jobs = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
        Batch {
            round: self.round,
            round_jobs: self.round_jobs,
            jobs,
        }
    }
}
