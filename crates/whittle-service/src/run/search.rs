//! Phase 3 (docs/design.md §13) driven live on a device pool: the parallel scheduler decides which
//! replays run (the reducer's request, plus speculative ones on the other devices),
//! this loop runs each round's replays concurrently, archives the evidence of every
//! attempt in attempt order and answers. The capture of every pool device is checked
//! before each round. With one device this is the sequential seed loop.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Instant;

use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::engine::{FailureCause, Phase, ReplayOutcome, SearchResult};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::plan::ReplayStep;

use super::evidence_session::{capture_problem, DeviceCapture, EvidenceSession};
use super::evidence_step::{evidence_step, finished_event};
use super::journal::{AttemptOutcome, Journal, JournalAttempt};
use super::pool_record::PoolReplay;
use super::resume::outcome_of;
use super::rounds::{Batch, RoundCursor};
use super::{LiveRun, RunEvent, RunNotice};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::{
    archive_screenshot, ArchivedShot, AttemptShot, BeforeLastAction, FilmRecorder, FilmSource,
    FilmstripRecord, ShotOmission,
};
use crate::replay::{replay_observed, ReplayError, ReplayObserver, ReplayVerdict};

pub(crate) struct Search<'a, E> {
    pub hub: &'a Hub,
    pub config: &'a Config,
    pub run: &'a LiveRun,
    pub evidence: &'a EvidenceSession,
    /// The pool: one running capture per device, the primary first.
    pub captures: &'a [DeviceCapture],
    pub on_event: &'a E,
    pub cancel: &'a CancellationToken,
    /// Why screenshots were omitted, as already told: each reason is told once (its first
    /// attempt), since after a crash every reproducing attempt's screen is the launcher's
    /// and would repeat it; each attempt's notes and history row still say it.
    pub omissions_told: std::sync::Mutex<Vec<ShotOmission>>,
    /// Where every finished attempt is made durable before the next replay starts
    /// (`None` only for a run that ends before its baseline).
    pub journal: Option<&'a Journal>,
}

/// One replay's journal record, before its evidence step is recorded.
struct Ran {
    entry: JournalAttempt,
    /// Whether `entry` is on disk (why not, when it is not).
    journaled: Result<(), FailureCause>,
}

impl<E> Search<'_, E> {
    /// True the first time `why` is asked about in this run.
    fn first_telling(&self, why: &ShotOmission) -> bool {
        // A poisoned set only means another attempt panicked mid-insert: keep using it.
        let mut told = self
            .omissions_told
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let first = !told.contains(why);
        if first {
            told.push(why.clone());
        }
        first
    }
}

impl<E: Fn(RunEvent) + Send + Sync> Search<'_, E> {
    /// Runs the scheduler to its end. `capture_start_failure` ends it before the
    /// baseline without counting an attempt. `cursor` says which round comes next (a
    /// resumed run first finishes the round its interruption cut short).
    pub async fn run(
        &self,
        scheduler: &mut Scheduler,
        cursor: &mut RoundCursor,
        mut capture_start_failure: Option<FailureCause>,
        log: &mut Vec<PoolReplay>,
    ) -> SearchResult {
        let mut device_of: HashMap<u32, String> = HashMap::new();
        let mut duration_of: HashMap<u32, u32> = HashMap::new();
        loop {
            if let Some(result) = scheduler.is_done() {
                return result;
            }
            let batch = cursor.next(scheduler, self.captures.len().max(1));
            (self.on_event)(RunEvent::Snapshot(scheduler.snapshot()));
            let problem = match capture_start_failure.take() {
                Some(reason) => Some(reason),
                None => self.pool_capture_problem().await,
            };
            if let Some(cause) = problem {
                // Nothing ran: the round's first job latches the failure, none is charged.
                for job in &batch.jobs {
                    scheduler.complete(
                        job.attempt,
                        ReplayOutcome::CaptureMissing {
                            cause: cause.clone(),
                        },
                    );
                }
                continue;
            }
            let rounds = batch
                .jobs
                .iter()
                .zip(self.captures)
                .map(|(job, capture)| {
                    device_of.insert(job.attempt, capture.device.clone());
                    Box::pin(self.replay_job(&batch, job, &capture.device))
                        as Pin<Box<dyn Future<Output = Ran> + Send + '_>>
                })
                .collect();
            let results = join_all(rounds).await;
            // Evidence steps in attempt order, so the report lists them in that order.
            for (job, ran) in batch.jobs.iter().zip(results) {
                duration_of.insert(job.attempt, ran.entry.duration_ms);
                let outcome = self.record(ran).await;
                scheduler.complete(job.attempt, outcome);
            }
            for settled in scheduler.settled() {
                log.push(PoolReplay {
                    attempt: settled.job.attempt,
                    phase: settled.job.phase,
                    server: device_of
                        .get(&settled.job.attempt)
                        .and_then(|d| self.hub.device_route(d))
                        .map(|r| r.server),
                    device: device_of.remove(&settled.job.attempt).unwrap_or_default(),
                    speculative: settled.job.speculative,
                    consumed: settled.consumed,
                    duration_ms: duration_of.remove(&settled.job.attempt).unwrap_or(0),
                });
            }
        }
    }

    /// The first pool device whose capture is not running, and why.
    async fn pool_capture_problem(&self) -> Option<FailureCause> {
        for (at, capture) in self.captures.iter().enumerate() {
            if let Some(detail) = capture_problem(self.hub, &capture.capture_id).await {
                // The primary is the run's device: only a pool device is named.
                let device = (at > 0).then(|| capture.device.clone());
                return Some(FailureCause::Capture { device, detail });
            }
        }
        None
    }

    /// Replays one job on `device`, takes its screenshot there and journals the attempt
    /// (durable before this returns, so before any later replay starts).
    async fn replay_job(&self, batch: &Batch, job: &Job, device: &str) -> Ran {
        // A real device draws its own outcomes: `occurrence` is for simulated ones.
        let Job {
            attempt,
            phase,
            ref candidate,
            speculative,
            occurrence: _,
        } = *job;
        (self.on_event)(RunEvent::AttemptStarted {
            attempt,
            phase,
            candidate: candidate.clone(),
        });
        let started = Instant::now();
        let span = tracing::info_span!("replay", attempt, phase = ?phase, candidate = ?candidate, device, speculative);
        let mut observers = (
            self.film_recorder(job, device),
            BeforeLastAction::new(
                self.frame_source(device),
                attempt,
                candidate.last().and_then(|&i| self.run.plan.step(i)),
            ),
        );
        let outcome = tokio::select! {
            biased;
            _ = self.cancel.cancelled() => AttemptOutcome::Cancelled,
            r = self.replay(candidate, device, &mut observers).instrument(span) => match r {
                Ok(verdict) => AttemptOutcome::Replayed { verdict },
                Err(e) => AttemptOutcome::Failed { cause: e.cause() },
            },
        };
        let (film, before_last) = observers;
        film.finish(outcome.verdict().is_some_and(|v| v.reproduced));
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let shot = if self.cancel.is_cancelled() {
            before_last.discard();
            AttemptShot {
                shot: ArchivedShot {
                    src: None,
                    redacted: true,
                    omitted_because: Some(ShotOmission::Cancelled),
                },
                before_step: None,
            }
        } else {
            let after = archive_screenshot(
                self.hub,
                device,
                &self.run.ctx.package,
                &self.evidence.dir,
                attempt,
                &self.config.masking,
            )
            .await;
            before_last.choose(after)
        };
        let entry = journal_entry(batch, job, device, outcome, &shot, duration_ms);
        let journaled = match self.journal {
            Some(journal) => journal.record_attempt(&entry).map_err(|e| e.to_string()),
            None => Err("the run has no journal".to_owned()),
        };
        if let Err(e) = &journaled {
            tracing::error!(attempt, error = %e, "attempt not saved to the journal");
        }
        Ran {
            entry,
            journaled: journaled.map_err(|detail| FailureCause::NotSaved { detail }),
        }
    }

    /// Archives one replay as an evidence step and turns it into the engine's outcome.
    async fn record(&self, ran: Ran) -> ReplayOutcome {
        let Ran { entry, journaled } = ran;
        let cancelled = matches!(entry.outcome, AttemptOutcome::Cancelled);
        if let Some(why) = entry
            .screenshot_omitted
            .as_ref()
            .filter(|why| !cancelled && self.first_telling(why))
        {
            (self.on_event)(RunEvent::Notice {
                notice: RunNotice::ScreenshotOmitted {
                    attempt: entry.attempt,
                    why: why.clone(),
                },
            });
        }
        // An attempt that is not in the journal is not durable: it is left out of the
        // evidence too, so a resume runs it again and the evidence holds it once.
        let recorded = match journaled {
            Err(cause) => Err(cause),
            Ok(()) => self
                .hub
                .report()
                .record_step(evidence_step(
                    &self.evidence.id,
                    &entry,
                    self.hub.device_route(&entry.device).map(|r| r.server),
                ))
                .await
                .map(|_| ())
                .map_err(|e| FailureCause::NotSaved {
                    detail: format!("evidence step not recorded: {e}"),
                }),
        };
        (self.on_event)(finished_event(&entry));
        match (entry.outcome, recorded) {
            (AttemptOutcome::Cancelled, _) => ReplayOutcome::Cancelled,
            (AttemptOutcome::Failed { cause }, _)
            | (AttemptOutcome::Replayed { .. }, Err(cause)) => ReplayOutcome::Failed { cause },
            (AttemptOutcome::Replayed { verdict }, Ok(())) => outcome_of(&verdict),
        }
    }

    /// The filmstrip of the minimal path is taken during the final confirmation
    /// replays, until one that reproduced the crash has it; other replays take none.
    fn film_recorder<'b>(&'b self, job: &Job, device: &'b str) -> FilmRecorder<'b> {
        let wanted = job.phase == Phase::Confirm
            && !FilmstripRecord::read(&self.evidence.dir).has_reproduced(&job.candidate);
        FilmRecorder::new(
            self.frame_source(device),
            job.attempt,
            &job.candidate,
            self.run.plan.setup.first().copied(),
            wanted,
        )
    }

    /// Where `device`'s masked frames come from and go.
    fn frame_source<'b>(&'b self, device: &'b str) -> FilmSource<'b> {
        FilmSource {
            hub: self.hub,
            device,
            package: &self.run.ctx.package,
            evidence_dir: &self.evidence.dir,
            masking: &self.config.masking,
        }
    }

    async fn replay(
        &self,
        candidate: &[u32],
        device: &str,
        film: &mut (impl ReplayObserver + Send),
    ) -> Result<ReplayVerdict, ReplayError> {
        let plan = &self.run.plan;
        let steps: Vec<&ReplayStep> = candidate
            .iter()
            .map(|&i| plan.step(i).ok_or(ReplayError::UnknownStep { step: i }))
            .collect::<Result<_, _>>()?;
        if device == self.run.ctx.device {
            return replay_observed(self.hub, &self.run.ctx, &steps, film).await;
        }
        // A pool device: the same run, another device (its own timing is the replay
        // module's business).
        let mut ctx = self.run.ctx.clone();
        ctx.device = device.to_string();
        ctx.timing = self.config.timing_for(device);
        replay_observed(self.hub, &ctx, &steps, film).await
    }
}

/// The journal's record of one finished attempt.
fn journal_entry(
    batch: &Batch,
    job: &Job,
    device: &str,
    outcome: AttemptOutcome,
    shot: &AttemptShot,
    duration_ms: u32,
) -> JournalAttempt {
    JournalAttempt {
        round: batch.round,
        round_jobs: batch.round_jobs,
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
        speculative: job.speculative,
        device: device.to_string(),
        outcome,
        duration_ms,
        screenshot_src: shot.shot.src.clone(),
        screenshot_redacted: shot.shot.redacted,
        screenshot_omitted: shot.shot.omitted_because.clone(),
        screenshot_before_step: shot.before_step,
        finished_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}

/// Polls every future of a round until all are done; results in input order. (A
/// round is at most one future per device, so polling them all on each wake is cheap.)
async fn join_all<'a, T>(mut futures: Vec<Pin<Box<dyn Future<Output = T> + Send + 'a>>>) -> Vec<T> {
    let mut results: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, slot) in futures.iter_mut().zip(results.iter_mut()) {
            if slot.is_some() {
                continue;
            }
            match future.as_mut().poll(cx) {
                Poll::Ready(value) => *slot = Some(value),
                Poll::Pending => pending = true,
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    results.into_iter().flatten().collect()
}
