//! Seed Phase 3 driven live: the engine decides, this loop replays, archives the
//! evidence of every attempt and answers. Every replay is preceded by the capture check.

use std::time::Instant;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::contract::report::RecordStepArgs;
use whittle_core::engine::{Outcome, ReplayRequest, Request, SearchResult};
use whittle_core::plan::ReplayStep;
use whittle_core::strategy::Reducer;

use super::evidence_session::{capture_problem, EvidenceSession};
use super::{LiveRun, RunEvent};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::{archive_screenshot, ArchivedShot};
use crate::replay::{replay, ReplayError, ReplayVerdict};

pub const CANCELLED: &str = "cancelled by user";

pub(crate) struct Search<'a, E> {
    pub hub: &'a Hub,
    pub config: &'a Config,
    pub run: &'a LiveRun,
    pub evidence: &'a EvidenceSession,
    pub on_event: &'a E,
    pub cancel: &'a CancellationToken,
}

impl<E: Fn(RunEvent) + Send + Sync> Search<'_, E> {
    /// Runs the engine to its end. `capture_start_failure` ends it before the baseline
    /// without counting an attempt.
    pub async fn run(
        &self,
        engine: &mut (dyn Reducer + Send),
        mut capture_start_failure: Option<String>,
    ) -> SearchResult {
        loop {
            let request = match engine.next_request() {
                Request::Done(result) => return result,
                Request::Replay(request) => request,
            };
            (self.on_event)(RunEvent::Snapshot(engine.snapshot()));
            let problem = match capture_start_failure.take() {
                Some(reason) => Some(reason),
                None => capture_problem(self.hub, &self.evidence.id).await,
            };
            if let Some(reason) = problem {
                engine.record(Outcome::CaptureMissing { reason });
                continue;
            }
            let outcome = self.attempt(&request).await;
            engine.record(outcome);
        }
    }

    async fn attempt(&self, request: &ReplayRequest) -> Outcome {
        let ReplayRequest {
            attempt,
            phase,
            candidate,
        } = request.clone();
        (self.on_event)(RunEvent::AttemptStarted {
            attempt,
            phase,
            candidate: candidate.clone(),
        });
        let started = Instant::now();
        let span = tracing::info_span!("replay", attempt, phase = ?phase, candidate = ?candidate);
        let replayed = tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(CANCELLED.to_string()),
            r = self.replay(&candidate).instrument(span) => r.map_err(|e| e.to_string()),
        };
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let shot = if self.cancel.is_cancelled() {
            ArchivedShot {
                src: None,
                redacted: true,
                omitted_because: Some(CANCELLED.into()),
            }
        } else {
            let ctx = &self.run.ctx;
            archive_screenshot(
                self.hub,
                &ctx.device,
                &self.evidence.dir,
                attempt,
                &self.config.masking,
            )
            .await
        };
        if let Some(why) = &shot.omitted_because {
            (self.on_event)(RunEvent::Warning {
                message: format!("attempt {attempt}: screenshot omitted ({why})"),
            });
        }

        let result_json = match &replayed {
            Ok(v) => serde_json::to_value(v).unwrap_or_default(),
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
        let notes = json!({ "attempt": attempt, "phase": phase, "candidate": candidate, "result": result_json });
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
                Ok(v) => v.reason.clone(),
                Err(e) => Some(format!("runtime_error: {e}")),
            },
            signature: verdict.and_then(|v| v.signature.clone()),
            label: verdict.and_then(|v| v.label.clone()),
            duration_ms,
            screenshot: shot.src.clone(),
            screenshot_redacted: shot.redacted,
            device: self.run.ctx.device.clone(),
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
                reason: v.reason.unwrap_or_default(),
            },
        }
    }

    async fn replay(&self, candidate: &[u32]) -> Result<ReplayVerdict, ReplayError> {
        let plan = &self.run.plan;
        let steps: Vec<&ReplayStep> = candidate
            .iter()
            .map(|&i| plan.step(i).ok_or(ReplayError::UnknownStep { step: i }))
            .collect::<Result<_, _>>()?;
        replay(self.hub, &self.run.ctx, &steps).await
    }
}
