//! Rebuilding a run's scheduler from its journal, without replaying anything: each
//! recorded round is dispatched again (with its recorded size, so speculation picks the
//! same jobs) and answered with the recorded verdicts, in order. The scheduler and its
//! reducer are deterministic, so they reach exactly the state the interrupted run had —
//! attempt numbers (wasted speculation's skipped), the budget, the flaky latch, the
//! predictor's lessons — and the run continues as if it had never stopped.
//!
//! An attempt with no verdict (a device error, a cancel, or one whose record never made
//! it to disk) in the last round is run again under its own number; the rest of that
//! round's recorded verdicts are kept. Anything that does not line up with what the
//! engine asks refuses the resume: the evidence and this Whittle disagree.

use std::collections::BTreeMap;

use whittle_core::engine::{MissReason, ReplayOutcome};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::strategy::Reducer;

use super::super::journal::{AttemptOutcome, JournalAttempt};
use super::super::pool_record::PoolReplay;
use super::super::rounds::RoundCursor;
use crate::replay::ReplayVerdict;

/// A scheduler in the state the journal describes, and where the rounds stand.
pub struct Restored {
    pub scheduler: Scheduler,
    pub cursor: RoundCursor,
    /// Attempts answered from the journal (never replayed again).
    pub restored: u32,
    /// The device log of the rounds already consumed (for `pool.json`).
    pub log: Vec<PoolReplay>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error("attempt {attempt} in the journal is not the replay the engine asks for at that point ({detail})")]
    Diverged { attempt: u32, detail: String },
    #[error("round {round} of the journal is recorded with different sizes")]
    RoundSize { round: u32 },
    #[error("round {round} of the journal is incomplete, yet later rounds are recorded")]
    Gap { round: u32 },
}

/// Feeds `attempts` (journal order) to a scheduler over `reducer`.
pub fn restore(
    reducer: Box<dyn Reducer + Send>,
    attempts: &[JournalAttempt],
) -> Result<Restored, RestoreError> {
    // Per attempt number, the record that counts: one with a verdict wins over one
    // without (an attempt re-run by an earlier resume), else the latest.
    let mut by_attempt: BTreeMap<u32, &JournalAttempt> = BTreeMap::new();
    let mut rounds: BTreeMap<u32, u32> = BTreeMap::new();
    for record in attempts {
        if *rounds.entry(record.round).or_insert(record.round_jobs) != record.round_jobs {
            return Err(RestoreError::RoundSize {
                round: record.round,
            });
        }
        let keep_earlier = by_attempt
            .get(&record.attempt)
            .is_some_and(|earlier| has_verdict(earlier) && !has_verdict(record));
        if !keep_earlier {
            by_attempt.insert(record.attempt, record);
        }
    }
    let mut scheduler = Scheduler::new(reducer);
    let mut log = Vec::new();
    let mut restored = 0u32;
    let last = rounds.keys().next_back().copied().unwrap_or(0);
    for round in 1..=last {
        let size = *rounds.get(&round).ok_or(RestoreError::Gap {
            round: round.saturating_sub(1),
        })?;
        let jobs = scheduler.dispatch(usize::try_from(size).unwrap_or(usize::MAX));
        check_round(round, size, &jobs, &by_attempt)?;
        let mut unfinished = Vec::new();
        for job in &jobs {
            let record = by_attempt.get(&job.attempt).filter(|r| r.round == round);
            match record.map(|r| &r.outcome) {
                Some(AttemptOutcome::Replayed { verdict }) => {
                    scheduler.complete(job.attempt, outcome_of(verdict));
                    restored = restored.saturating_add(1);
                }
                // Only the interrupted round may have attempts to run again; earlier
                // rounds ran through, so their failures were wasted speculation and
                // count as the run counted them.
                Some(AttemptOutcome::Failed { cause }) if round < last => {
                    let cause = cause.clone();
                    scheduler.complete(job.attempt, ReplayOutcome::Failed { cause });
                    restored = restored.saturating_add(1);
                }
                Some(AttemptOutcome::Cancelled) if round < last => {
                    scheduler.complete(job.attempt, ReplayOutcome::Cancelled);
                    restored = restored.saturating_add(1);
                }
                _ => unfinished.push(job.clone()),
            }
        }
        if !unfinished.is_empty() {
            if round < last {
                return Err(RestoreError::Gap { round });
            }
            return Ok(Restored {
                scheduler,
                cursor: RoundCursor::resumed(round, size, unfinished),
                restored,
                log,
            });
        }
        log.extend(scheduler.settled().iter().map(|settled| {
            PoolReplay {
                attempt: settled.job.attempt,
                phase: settled.job.phase,
                device: by_attempt
                    .get(&settled.job.attempt)
                    .map(|r| r.device.clone())
                    .unwrap_or_default(),
                // The journal names devices only; the resume names their lab hosts.
                server: None,
                speculative: settled.job.speculative,
                consumed: settled.consumed,
                duration_ms: by_attempt
                    .get(&settled.job.attempt)
                    .map_or(0, |r| r.duration_ms),
            }
        }));
    }
    Ok(Restored {
        scheduler,
        cursor: RoundCursor::resumed(last, rounds.get(&last).copied().unwrap_or(0), Vec::new()),
        restored,
        log,
    })
}

fn has_verdict(record: &JournalAttempt) -> bool {
    record.outcome.verdict().is_some()
}

/// The round the scheduler dispatched again must be the recorded one: its size, and
/// every recorded attempt of it one of its jobs, identical.
fn check_round(
    round: u32,
    size: u32,
    jobs: &[Job],
    by_attempt: &BTreeMap<u32, &JournalAttempt>,
) -> Result<(), RestoreError> {
    if u32::try_from(jobs.len()).ok() != Some(size) {
        let attempt = jobs.first().map_or(0, |j| j.attempt);
        return Err(RestoreError::Diverged {
            attempt,
            detail: format!(
                "round {round} was recorded with {size} replays, the engine asks for {}",
                jobs.len()
            ),
        });
    }
    for record in by_attempt.values().filter(|r| r.round == round) {
        let Some(job) = jobs.iter().find(|j| j.attempt == record.attempt) else {
            return Err(RestoreError::Diverged {
                attempt: record.attempt,
                detail: format!("round {round} has no such attempt"),
            });
        };
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
