//! Seed Phase 3 driven live on a device pool: the parallel scheduler decides which
//! replays run (the reducer's request, plus speculative ones on the other devices),
//! this loop runs each round's replays concurrently, archives the evidence of every
//! attempt in attempt order and answers. The capture of every pool device is checked
//! before each round. With one device this is the sequential seed loop.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::contract::report::RecordStepArgs;
use whittle_core::engine::{Outcome, Phase, SearchResult};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::plan::ReplayStep;

use super::evidence_session::{capture_problem, DeviceCapture, EvidenceSession};
use super::{AttemptReason, LiveRun, RunEvent, RunNotice};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::{archive_screenshot, ArchivedShot, FilmRecorder, FilmstripRecord};
use crate::replay::{replay_observed, ReplayError, ReplayVerdict};

pub const CANCELLED: &str = "cancelled by user";

pub(crate) struct Search<'a, E> {
    pub hub: &'a Hub,
    pub config: &'a Config,
    pub run: &'a LiveRun,
    pub evidence: &'a EvidenceSession,
    /// The pool: one running capture per device, the primary first.
    pub captures: &'a [DeviceCapture],
    pub on_event: &'a E,
    pub cancel: &'a CancellationToken,
}

/// Which device ran which attempt, and whether its verdict was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolReplay {
    pub attempt: u32,
    pub phase: Phase,
    pub device: String,
    pub speculative: bool,
    /// `false`: a speculative replay whose verdict the search did not need (wasted;
    /// it still counts against the budget).
    pub consumed: bool,
}

/// One replay's raw result, before its evidence step is recorded.
struct Ran {
    replayed: Result<ReplayVerdict, String>,
    shot: ArchivedShot,
    duration_ms: u32,
}

impl<E: Fn(RunEvent) + Send + Sync> Search<'_, E> {
    /// Runs the scheduler to its end. `capture_start_failure` ends it before the
    /// baseline without counting an attempt.
    pub async fn run(
        &self,
        scheduler: &mut Scheduler,
        mut capture_start_failure: Option<String>,
        log: &mut Vec<PoolReplay>,
    ) -> SearchResult {
        loop {
            if let Some(result) = scheduler.is_done() {
                return result;
            }
            let jobs = scheduler.dispatch(self.captures.len().max(1));
            (self.on_event)(RunEvent::Snapshot(scheduler.snapshot()));
            let problem = match capture_start_failure.take() {
                Some(reason) => Some(reason),
                None => self.pool_capture_problem().await,
            };
            if let Some(reason) = problem {
                // Nothing ran: the round's first job latches the failure, none is charged.
                for job in &jobs {
                    scheduler.complete(
                        job.attempt,
                        Outcome::CaptureMissing {
                            reason: reason.clone(),
                        },
                    );
                }
                continue;
            }
            let rounds = jobs
                .iter()
                .zip(self.captures)
                .map(|(job, capture)| {
                    Box::pin(self.replay_job(job, &capture.device))
                        as Pin<Box<dyn Future<Output = Ran> + Send + '_>>
                })
                .collect();
            let results = join_all(rounds).await;
            // Evidence steps in attempt order, so the report lists them in that order.
            for ((job, capture), ran) in jobs.iter().zip(self.captures).zip(results) {
                let outcome = self.record(job, &capture.device, ran).await;
                scheduler.complete(job.attempt, outcome);
            }
            for settled in scheduler.settled() {
                let device = jobs
                    .iter()
                    .position(|j| j.attempt == settled.job.attempt)
                    .and_then(|at| self.captures.get(at))
                    .map_or_else(String::new, |c| c.device.clone());
                log.push(PoolReplay {
                    attempt: settled.job.attempt,
                    phase: settled.job.phase,
                    device,
                    speculative: settled.job.speculative,
                    consumed: settled.consumed,
                });
            }
        }
    }

    /// The first pool device whose capture is not running, and why.
    async fn pool_capture_problem(&self) -> Option<String> {
        for (at, capture) in self.captures.iter().enumerate() {
            if let Some(problem) = capture_problem(self.hub, &capture.capture_id).await {
                return Some(if at == 0 {
                    problem
                } else {
                    format!("{} (device {})", problem, capture.device)
                });
            }
        }
        None
    }

    /// Replays one job on `device` and takes its screenshot there.
    async fn replay_job(&self, job: &Job, device: &str) -> Ran {
        let Job {
            attempt,
            phase,
            ref candidate,
            speculative,
        } = *job;
        (self.on_event)(RunEvent::AttemptStarted {
            attempt,
            phase,
            candidate: candidate.clone(),
        });
        let started = Instant::now();
        let span = tracing::info_span!("replay", attempt, phase = ?phase, candidate = ?candidate, device, speculative);
        let mut film = self.film_recorder(job, device);
        let replayed = tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(CANCELLED.to_string()),
            r = self.replay(candidate, device, &mut film).instrument(span) => r.map_err(|e| e.to_string()),
        };
        film.finish(matches!(&replayed, Ok(v) if v.reproduced));
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let shot = if self.cancel.is_cancelled() {
            ArchivedShot {
                src: None,
                redacted: true,
                omitted_because: Some(CANCELLED.into()),
            }
        } else {
            archive_screenshot(
                self.hub,
                device,
                &self.run.ctx.package,
                &self.evidence.dir,
                attempt,
                &self.config.masking,
            )
            .await
        };
        Ran {
            replayed,
            shot,
            duration_ms,
        }
    }

    /// Archives one replay as an evidence step and turns it into the engine's outcome.
    async fn record(&self, job: &Job, device: &str, ran: Ran) -> Outcome {
        let Job {
            attempt,
            phase,
            ref candidate,
            speculative,
        } = *job;
        let Ran {
            replayed,
            shot,
            duration_ms,
        } = ran;
        let cancelled = matches!(&replayed, Err(e) if e == CANCELLED);
        if let Some(why) = shot.omitted_because.as_ref().filter(|_| !cancelled) {
            (self.on_event)(RunEvent::Notice {
                notice: RunNotice::ScreenshotOmitted {
                    attempt,
                    why: why.clone(),
                },
            });
        }
        let result_json = match &replayed {
            Ok(v) => serde_json::to_value(v).unwrap_or_default(),
            // The user stopped it: not a failure of the device (see `recorded`).
            Err(_) if cancelled => json!({ "reproduced": false, "reason": "cancelled" }),
            Err(error) => json!({ "reproduced": false, "reason": "runtime_error", "error": error }),
        };
        let reproduced = matches!(&replayed, Ok(v) if v.reproduced);
        let action = format!(
            "replay [{}]",
            candidate
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut notes = json!({
            "attempt": attempt, "phase": phase, "candidate": candidate, "result": result_json,
            "device": device, "speculative": speculative, "duration_ms": duration_ms,
        });
        // An omitted screenshot says why, next to `screenshot_redacted: true`.
        if let Some(why) = &shot.omitted_because {
            notes["screenshot_omitted"] = json!(why);
        }
        let recorded = self
            .hub
            .report()
            .record_step(RecordStepArgs {
                session_id: self.evidence.id.clone(),
                action,
                result: if reproduced { "ok" } else { "fail" }.into(),
                notes: notes.to_string(),
                screenshot_src: shot.src.clone(),
                screenshot_redacted: Some(shot.redacted),
            })
            .await;

        let verdict = replayed.as_ref().ok();
        (self.on_event)(RunEvent::AttemptFinished {
            attempt,
            phase,
            candidate: candidate.clone(),
            reproduced,
            reason: match &replayed {
                Ok(v) => v.reason.map(AttemptReason::from),
                Err(_) if cancelled => Some(AttemptReason::Cancelled),
                Err(e) => Some(AttemptReason::RuntimeError { detail: e.clone() }),
            },
            step: verdict.and_then(|v| v.step),
            signature: verdict.and_then(|v| v.signature.clone()),
            label: verdict.and_then(|v| v.label.clone()),
            observed: verdict.map(|v| v.observed.clone()).unwrap_or_default(),
            duration_ms,
            screenshot: shot.src.clone(),
            screenshot_redacted: shot.redacted,
            device: device.to_string(),
        });
        match (replayed, recorded) {
            (Err(error), _) => Outcome::RuntimeError { error },
            (Ok(_), Err(e)) => Outcome::RuntimeError {
                error: format!("evidence step not recorded: {e}"),
            },
            (
                Ok(ReplayVerdict {
                    reproduced: true, ..
                }),
                Ok(_),
            ) => Outcome::Reproduced,
            (Ok(v), Ok(_)) => Outcome::NotReproduced {
                reason: v.reason.map(|r| r.as_str().to_string()).unwrap_or_default(),
            },
        }
    }

    /// The filmstrip of the minimal path is taken during the final confirmation
    /// replays, until one that reproduced the crash has it; other replays take none.
    fn film_recorder<'b>(&'b self, job: &Job, device: &'b str) -> FilmRecorder<'b> {
        let wanted = job.phase == Phase::Confirm
            && !FilmstripRecord::read(&self.evidence.dir).has_reproduced(&job.candidate);
        FilmRecorder::new(
            self.hub,
            device,
            &self.run.ctx.package,
            &self.evidence.dir,
            &self.config.masking,
            job.attempt,
            &job.candidate,
            self.run.plan.setup.first().copied(),
            wanted,
        )
    }

    async fn replay(
        &self,
        candidate: &[u32],
        device: &str,
        film: &mut FilmRecorder<'_>,
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
