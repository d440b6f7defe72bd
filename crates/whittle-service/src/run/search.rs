//! Phase 3 (docs/design.md §13) driven live on a device pool: the parallel scheduler decides which
//! replays run (the reducer's request, plus speculative ones on the other devices),
//! this loop starts each on a device as soon as one is free, archives the evidence of
//! every attempt in attempt order and answers. A device's capture is checked before it
//! takes a job. With one device this is the sequential seed loop.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use futures_util::stream::{FuturesUnordered, StreamExt};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::engine::{FailureCause, Phase, ReplayOutcome, SearchResult};
use whittle_core::parallel::{Job, Scheduler};

use super::attempt::{Attempt, ShotAfterCancel};
use super::evidence_session::{capture_problem, DeviceCapture, EvidenceSession};
use super::evidence_step::{evidence_step, finished_event};
use super::journal::{AttemptOutcome, Journal, JournalAttempt};
use super::pool_record::PoolReplay;
use super::resume::outcome_of;
use super::rounds::{Batch, RoundCursor, Turn};
use super::{LiveRun, RunEvent, RunEvents, RunNotice};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::{FilmRecorder, FilmstripRecord, HubScreen, ShotOmission};
use crate::replay::ReplayContext;
use crate::watch::LiveWatch;

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

impl<E: RunEvents> Search<'_, E> {
    /// Runs the scheduler to its end, streaming: each device takes its next job as soon
    /// as it is free, and each outcome reaches the scheduler in attempt order once its
    /// evidence step is recorded (the report lists attempts in that order), while the
    /// other devices go on replaying. `capture_start_failure` ends it before the
    /// baseline without counting an attempt. `cursor` says what runs next (a resumed
    /// run first runs again what its interruption left without a verdict).
    pub async fn run(
        &self,
        scheduler: &mut Scheduler,
        cursor: &mut RoundCursor,
        capture_start_failure: Option<FailureCause>,
        log: &mut Vec<PoolReplay>,
    ) -> SearchResult {
        let mut device_of: HashMap<u32, String> = HashMap::new();
        // Per job running: what stops it once the search no longer needs it.
        let mut stops: HashMap<u32, CancellationToken> = HashMap::new();
        let mut duration_of: HashMap<u32, u32> = HashMap::new();
        let mut pool = Pool {
            // The primary is taken first.
            idle: (0..self.captures.len()).rev().collect(),
            running: FuturesUnordered::new(),
            finished: BTreeMap::new(),
        };
        // Once a capture is gone or the journal refuses a round, nothing more runs: each
        // job handed out from then on ends with this outcome, so the search ends at
        // the first of them it consumes (a missing capture is never charged).
        let mut halted: Option<ReplayOutcome> =
            capture_start_failure.map(|cause| ReplayOutcome::CaptureMissing { cause });
        loop {
            // Every outcome whose turn has come, in attempt order.
            while let Some(turn) = cursor.take_turn(&mut pool.finished) {
                let (attempt, outcome) = match turn {
                    Turn::Answered(attempt, outcome)
                    | Turn::Finished(attempt, Finished::NotRun(outcome)) => (attempt, outcome),
                    Turn::Finished(attempt, Finished::Ran(ran)) => {
                        duration_of.insert(attempt, ran.entry.duration_ms);
                        (attempt, pool.meanwhile(self.record(*ran)).await)
                    }
                };
                scheduler.complete(attempt, outcome);
            }
            // A guess whose branch was cut is stopped, as soon as no call that acts on
            // the device is in flight (`stop_gate.rs`): its device takes a job the
            // search may use instead of finishing one it will not.
            for attempt in scheduler.take_unneeded() {
                if let Some(stop) = stops.get(&attempt) {
                    tracing::debug!(attempt, "unneeded guess stopped");
                    stop.cancel();
                }
            }
            for settled in scheduler.take_settled() {
                stops.remove(&settled.job.attempt);
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
            if let Some(result) = scheduler.is_done() {
                return result;
            }
            // After a cancel or a halt, a job is handed out only to get it to the search.
            let winding_down = self.cancel.is_cancelled() || halted.is_some();
            let free = if winding_down && !pool.running.is_empty() {
                0
            } else {
                pool.idle.len()
            };
            let batch = cursor.next(scheduler, free);
            if !batch.jobs.is_empty() {
                self.on_event
                    .event(RunEvent::Snapshot(scheduler.snapshot()));
                let devices: Vec<usize> = pool.idle.split_off(pool.idle.len() - batch.jobs.len());
                if halted.is_none() {
                    let check = self
                        .capture_problem(&devices)
                        .instrument(tracing::debug_span!("capture_check"));
                    let problem = pool.meanwhile(check).await;
                    halted = match problem {
                        Some(cause) => Some(ReplayOutcome::CaptureMissing { cause }),
                        None => self
                            .journal_round(&batch)
                            .err()
                            .map(|cause| ReplayOutcome::Failed { cause }),
                    };
                }
                if let Some(outcome) = &halted {
                    pool.idle.extend(devices);
                    for job in &batch.jobs {
                        pool.finished
                            .insert(job.attempt, Finished::NotRun(outcome.clone()));
                    }
                    continue;
                }
                for (job, device) in batch.jobs.iter().zip(devices) {
                    let name = self.captures[device].device.as_str();
                    device_of.insert(job.attempt, name.to_owned());
                    let (round, round_jobs) = (batch.round, batch.round_jobs);
                    let job = job.clone();
                    let stop = CancellationToken::new();
                    stops.insert(job.attempt, stop.clone());
                    pool.running.push(Box::pin(async move {
                        let ran = self.replay_job(round, round_jobs, &job, name, &stop).await;
                        (device, ran)
                    }));
                }
                continue;
            }
            // Every free device has what it can take: wait for one to finish.
            let Some(done) = pool.running.next().await else {
                unreachable!("a search that is not done always has a replay running or to start");
            };
            pool.arrive(done);
        }
    }

    /// Makes a new round durable before its replays start: a resume must know every job
    /// that was handed out.
    fn journal_round(&self, batch: &Batch) -> Result<(), FailureCause> {
        let (Some(round), Some(journal)) = (&batch.new_round, self.journal) else {
            return Ok(());
        };
        journal.record_round(round).map_err(|e| {
            tracing::error!(round = round.round, error = %e, "round not saved to the journal");
            FailureCause::NotSaved {
                detail: e.to_string(),
            }
        })
    }

    /// The first of `devices` (indexes into the pool) whose capture is not running, and why.
    async fn capture_problem(&self, devices: &[usize]) -> Option<FailureCause> {
        for &at in devices {
            let capture = &self.captures[at];
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
    async fn replay_job(
        &self,
        round: u32,
        round_jobs: u32,
        job: &Job,
        device: &str,
        unneeded: &CancellationToken,
    ) -> Ran {
        self.on_event.event(RunEvent::AttemptStarted {
            attempt: job.attempt,
            phase: job.phase,
            candidate: job.candidate.clone(),
        });
        let ctx = self.context_on(device);
        let attempt = Attempt {
            hub: self.hub,
            plan: &self.run.plan,
            ctx: &ctx,
            job,
            evidence_dir: &self.evidence.dir,
            masking: &self.config.masking,
            cancel: self.cancel,
            unneeded: Some(unneeded),
        };
        let frames = |frame| self.on_event.frame(frame);
        let watch = self.on_event.watching().then(|| {
            LiveWatch::new(
                &frames,
                HubScreen::new(self.hub, device),
                device,
                job.attempt,
                &self.run.plan,
                &self.run.ctx.package,
                &self.config.masking,
            )
        });
        let (replayed, film) = attempt
            .replay(self.film_recorder(&attempt), watch.as_ref())
            .await;
        let reproduced = replayed.outcome.verdict().is_some_and(|v| v.reproduced);
        let entry = attempt
            .journal_attempt(replayed, (round, round_jobs), ShotAfterCancel::Omitted)
            .await;
        // After the attempt's screenshot is chosen: the strip's crash step may take the
        // frame before the last action that became it.
        film.finish(
            reproduced,
            entry
                .screenshot_before_step
                .zip(entry.screenshot_src.as_deref()),
        );
        let journaled = match self.journal {
            Some(journal) => journal.record_attempt(&entry).map_err(|e| e.to_string()),
            None => Err("the run has no journal".to_owned()),
        };
        if let Err(e) = &journaled {
            tracing::error!(attempt = job.attempt, error = %e, "attempt not saved to the journal");
        }
        Ran {
            entry,
            journaled: journaled.map_err(|detail| FailureCause::NotSaved { detail }),
        }
    }

    /// Archives one replay as an evidence step and turns it into the engine's outcome.
    async fn record(&self, ran: Ran) -> ReplayOutcome {
        let Ran { entry, journaled } = ran;
        // A stopped attempt's missing screenshot is no news.
        let stopped = matches!(
            entry.outcome,
            AttemptOutcome::Cancelled | AttemptOutcome::Unneeded
        );
        if let Some(why) = entry
            .screenshot_omitted
            .as_ref()
            .filter(|why| !stopped && self.first_telling(why))
        {
            self.on_event.event(RunEvent::Notice {
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
                .instrument(tracing::debug_span!(
                    "evidence_step",
                    attempt = entry.attempt
                ))
                .await
                .map(|_| ())
                .map_err(|e| FailureCause::NotSaved {
                    detail: format!("evidence step not recorded: {e}"),
                }),
        };
        self.on_event.event(finished_event(&entry));
        match (entry.outcome, recorded) {
            // The scheduler wastes an unneeded job whatever it reports.
            (AttemptOutcome::Cancelled | AttemptOutcome::Unneeded, _) => ReplayOutcome::Cancelled,
            (AttemptOutcome::Failed { cause }, _)
            | (AttemptOutcome::Replayed { .. }, Err(cause)) => ReplayOutcome::Failed { cause },
            (AttemptOutcome::Replayed { verdict }, Ok(())) => outcome_of(&verdict),
        }
    }

    /// The filmstrip of the minimal path is taken during the final confirmation
    /// replays, until one that reproduced the crash has it; other replays take none.
    fn film_recorder<'b>(&self, attempt: &Attempt<'b>) -> FilmRecorder<'b> {
        let job = attempt.job;
        let wanted = job.phase == Phase::Confirm
            && !FilmstripRecord::read(&self.evidence.dir).has_reproduced(&job.candidate);
        FilmRecorder::new(
            attempt.frames(),
            job.attempt,
            &job.candidate,
            self.run.plan.setup.first().copied(),
            wanted,
        )
    }

    /// The run's replay context on `device`: a pool device is the same run on another
    /// device, with that device's own timing.
    fn context_on(&self, device: &str) -> Cow<'_, ReplayContext> {
        if device == self.run.ctx.device {
            return Cow::Borrowed(&self.run.ctx);
        }
        let mut ctx = self.run.ctx.clone();
        ctx.device = device.to_string();
        ctx.timing = self.config.timing_for(device);
        Cow::Owned(ctx)
    }
}

/// The replays in flight: each yields its device (an index into the pool) and its run.
type InFlight<'a> = FuturesUnordered<Pin<Box<dyn Future<Output = (usize, Ran)> + Send + 'a>>>;

/// A job whose device is done with it, waiting for its turn to reach the scheduler.
enum Finished {
    Ran(Box<Ran>),
    /// Never ran (a capture was not running, or its round could not be journaled):
    /// the outcome that stands for it.
    NotRun(ReplayOutcome),
}

/// The devices of a run: which are free, the replays in flight, and the jobs whose
/// device is done with them.
struct Pool<'a> {
    idle: Vec<usize>,
    running: InFlight<'a>,
    finished: BTreeMap<u32, Finished>,
}

impl Pool<'_> {
    /// A device is done with its job.
    fn arrive(&mut self, (device, ran): (usize, Ran)) {
        self.idle.push(device);
        self.finished
            .insert(ran.entry.attempt, Finished::Ran(Box::new(ran)));
    }

    /// Awaits `work` while the replays in flight go on (a replay's MCP calls and waits
    /// must not stall while evidence is saved or a capture checked); any that finish
    /// meanwhile arrive.
    async fn meanwhile<T>(&mut self, work: impl Future<Output = T>) -> T {
        let mut work = std::pin::pin!(work);
        let mut arrived = Vec::new();
        let running = &mut self.running;
        let value = std::future::poll_fn(|cx| {
            while let Poll::Ready(Some(done)) = running.poll_next_unpin(cx) {
                arrived.push(done);
            }
            work.as_mut().poll(cx)
        })
        .await;
        for done in arrived {
            self.arrive(done);
        }
        value
    }
}
