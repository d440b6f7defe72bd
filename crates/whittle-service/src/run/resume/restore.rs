//! Rebuilding a run's scheduler from its journal, without replaying anything: each
//! recorded round is dispatched again at the point it was (after as many outcomes, fed
//! in attempt order as the live loop feeds them, with its recorded size), so
//! speculation hands out the same jobs, and answered with the recorded verdicts. The
//! scheduler and its reducer are deterministic, so they reach exactly the state the
//! interrupted run had — attempt numbers (wasted speculation's skipped), the budget,
//! the flaky latch, the predictor's lessons — and the run continues as if it had never
//! stopped.
//!
//! After the last round, outcomes are fed in attempt order up to the first job without
//! a verdict (a device error, a cancel, or one whose record never made it to disk; a
//! guess stopped as unneeded counts as fed when the rebuilt search finds it unneeded):
//! from there on, the jobs without a verdict run again under their own numbers and the
//! recorded verdicts of the others are kept, fed in turn. Anything that does not line
//! up with what the engine asks refuses the resume: the evidence and this Whittle
//! disagree.

use std::collections::{BTreeMap, HashSet};

use whittle_core::engine::{FailureCause, MissReason, ReplayOutcome};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::strategy::Reducer;

use super::super::journal::{AttemptOutcome, JournalAttempt, JournalRound};
use super::super::pool_record::PoolReplay;
use super::super::rounds::RoundCursor;
use crate::replay::ReplayVerdict;

/// A scheduler in the state the journal describes, and where the rounds stand.
pub struct Restored {
    pub scheduler: Scheduler,
    pub cursor: RoundCursor,
    /// Attempts answered from the journal (never replayed again).
    pub restored: u32,
    /// The device log of the jobs already settled (for `pool.json`).
    pub log: Vec<PoolReplay>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error("attempt {attempt} in the journal is not the replay the engine asks for at that point ({detail})")]
    Diverged { attempt: u32, detail: String },
    #[error("round {round} of the journal is recorded with different sizes")]
    RoundSize { round: u32 },
    #[error("round {round} of the journal is missing, yet later rounds are recorded")]
    Gap { round: u32 },
    #[error("round {round} of the journal was handed out after {completed_before} outcomes, but only {dispatched} jobs came before it")]
    TooEarly {
        round: u32,
        completed_before: u32,
        dispatched: u32,
    },
}

/// Feeds the journal's `rounds` and `attempts` to a scheduler over `reducer`.
pub fn restore(
    reducer: Box<dyn Reducer + Send>,
    rounds: &[JournalRound],
    attempts: &[JournalAttempt],
) -> Result<Restored, RestoreError> {
    // Per attempt number, the record that counts: one with a verdict wins over one
    // without (an attempt re-run by an earlier resume), else the latest.
    let mut by_attempt: BTreeMap<u32, &JournalAttempt> = BTreeMap::new();
    for record in attempts {
        let keep_earlier = by_attempt
            .get(&record.attempt)
            .is_some_and(|earlier| has_verdict(earlier) && !has_verdict(record));
        if !keep_earlier {
            by_attempt.insert(record.attempt, record);
        }
    }
    let mut feed = Feed {
        scheduler: Scheduler::new(reducer),
        by_attempt: &by_attempt,
        dispatched: Vec::new(),
        completed: 0,
        restored: 0,
        log: Vec::new(),
    };
    for (at, round) in rounds.iter().enumerate() {
        let expected = u32::try_from(at + 1).unwrap_or(u32::MAX);
        if round.round != expected {
            return Err(RestoreError::Gap { round: expected });
        }
        while feed.completed < round.completed_before as usize {
            if !feed.next_outcome(true) {
                return Err(RestoreError::TooEarly {
                    round: round.round,
                    completed_before: round.completed_before,
                    dispatched: u32::try_from(feed.dispatched.len()).unwrap_or(u32::MAX),
                });
            }
        }
        let jobs = feed.scheduler.dispatch(round.attempts.len());
        check_round(round, &jobs, &by_attempt)?;
        feed.dispatched
            .extend(jobs.into_iter().map(|job| (round.round, job)));
    }
    let handed_out: HashSet<u32> = feed.dispatched.iter().map(|(_, j)| j.attempt).collect();
    if let Some((&attempt, record)) = by_attempt
        .iter()
        .find(|(attempt, _)| !handed_out.contains(attempt))
    {
        return Err(RestoreError::Diverged {
            attempt,
            detail: format!("no recorded round handed it out (round {})", record.round),
        });
    }
    // The tail: in attempt order up to the first job without a verdict.
    while feed.next_outcome(false) {}
    let round_size = |round: u32| {
        rounds
            .get(round.saturating_sub(1) as usize)
            .map_or(0, |r| u32::try_from(r.attempts.len()).unwrap_or(u32::MAX))
    };
    let mut unfinished = Vec::new();
    let mut answered = BTreeMap::new();
    for (round, job) in &feed.dispatched[feed.completed..] {
        match by_attempt
            .get(&job.attempt)
            .and_then(|r| r.outcome.verdict())
        {
            Some(verdict) => {
                answered.insert(job.attempt, outcome_of(verdict));
                feed.restored = feed.restored.saturating_add(1);
            }
            None => unfinished.push((*round, round_size(*round), job.clone())),
        }
    }
    let completed = u32::try_from(feed.completed).unwrap_or(u32::MAX);
    let last_round = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
    Ok(Restored {
        scheduler: feed.scheduler,
        cursor: RoundCursor::resumed(last_round, completed, unfinished, answered),
        restored: feed.restored,
        log: feed.log,
    })
}

/// The scheduler being rebuilt, and the jobs it handed out so far.
struct Feed<'a> {
    scheduler: Scheduler,
    by_attempt: &'a BTreeMap<u32, &'a JournalAttempt>,
    /// Every job handed out, with its round, in attempt order.
    dispatched: Vec<(u32, Job)>,
    /// How many of them have had their outcome fed.
    completed: usize,
    restored: u32,
    log: Vec<PoolReplay>,
}

impl Feed<'_> {
    /// Feeds the next job's outcome as the live run fed it. Before a later round
    /// (`before_a_round`), every outcome was fed: a failure or cancel as it was, and a
    /// job with no record as the "not saved" failure it was. After the last round,
    /// only a verdict is fed. False when there is no next job, or (after the last
    /// round) it has no verdict.
    fn next_outcome(&mut self, before_a_round: bool) -> bool {
        let Some((_, job)) = self.dispatched.get(self.completed) else {
            return false;
        };
        let attempt = job.attempt;
        let record = self.by_attempt.get(&attempt);
        let outcome = match record.map(|r| &r.outcome) {
            Some(AttemptOutcome::Replayed { verdict }) => outcome_of(verdict),
            // A guess stopped as unneeded stands as it was where the rebuilt search
            // finds it unneeded too; elsewhere it is run again.
            Some(AttemptOutcome::Unneeded) if self.scheduler.is_unneeded(attempt) => {
                ReplayOutcome::Cancelled
            }
            _ if !before_a_round => return false,
            Some(AttemptOutcome::Failed { cause }) => ReplayOutcome::Failed {
                cause: cause.clone(),
            },
            Some(AttemptOutcome::Cancelled | AttemptOutcome::Unneeded) => ReplayOutcome::Cancelled,
            None => ReplayOutcome::Failed {
                cause: FailureCause::NotSaved {
                    detail: "not in the run's journal".into(),
                },
            },
        };
        if record.is_some() {
            self.restored = self.restored.saturating_add(1);
        }
        self.scheduler.complete(attempt, outcome);
        self.completed += 1;
        let by_attempt = self.by_attempt;
        self.log
            .extend(self.scheduler.take_settled().into_iter().map(|settled| {
                let record = by_attempt.get(&settled.job.attempt);
                PoolReplay {
                    attempt: settled.job.attempt,
                    phase: settled.job.phase,
                    device: record.map(|r| r.device.clone()).unwrap_or_default(),
                    // The journal names devices only; the resume names their lab hosts.
                    server: None,
                    speculative: settled.job.speculative,
                    consumed: settled.consumed,
                    duration_ms: record.map_or(0, |r| r.duration_ms),
                }
            }));
        true
    }
}

fn has_verdict(record: &JournalAttempt) -> bool {
    record.outcome.verdict().is_some()
}

/// The round the scheduler dispatched again must be the recorded one: the same attempt
/// numbers, and every recorded attempt of it identical to its job.
fn check_round(
    round: &JournalRound,
    jobs: &[Job],
    by_attempt: &BTreeMap<u32, &JournalAttempt>,
) -> Result<(), RestoreError> {
    let numbers: Vec<u32> = jobs.iter().map(|j| j.attempt).collect();
    if numbers != round.attempts {
        return Err(RestoreError::Diverged {
            attempt: round.attempts.first().copied().unwrap_or(0),
            detail: format!(
                "round {} handed out attempts {:?}, the engine asks for {:?}",
                round.round, round.attempts, numbers
            ),
        });
    }
    let size = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
    for job in jobs {
        let Some(record) = by_attempt.get(&job.attempt) else {
            continue;
        };
        if record.round != round.round || record.round_jobs != size {
            return Err(RestoreError::RoundSize { round: round.round });
        }
        if job.phase != record.phase
            || job.candidate != record.candidate
            || job.speculative != record.speculative
        {
            return Err(RestoreError::Diverged {
                attempt: record.attempt,
                detail: format!(
                    "recorded {:?} {:?}, the engine asks for {:?} {:?}",
                    record.phase, record.candidate, job.phase, job.candidate
                ),
            });
        }
    }
    Ok(())
}

/// The engine's outcome for a recorded verdict (as the live loop answers it).
pub fn outcome_of(verdict: &ReplayVerdict) -> ReplayOutcome {
    if verdict.reproduced {
        ReplayOutcome::Reproduced
    } else {
        ReplayOutcome::NotReproduced {
            // A miss always names its reason; evidence without one read as no crash.
            reason: verdict.reason.unwrap_or(MissReason::NoCrash),
        }
    }
}
