//! One attempt from its replay to its evidence: the pipeline the minimize search runs for
//! every job (`search.rs`) and Record once runs for its one replay of the whole flow
//! (`import/record.rs`), so both write their evidence the same way (the same screenshot
//! names, masking and journal-record notes).
//!
//! In order: [`Attempt::replay`] replays the job's candidate on the attempt's device
//! inside an evidence session — observed (the caller's own looks, the frame before the
//! last action, the live view when someone watches), cancellable, timed, in a `replay`
//! span; [`Attempt::journal_attempt`] takes the attempt's screenshot and makes the
//! journal record of it; `evidence_step.rs` turns that record into the evidence step
//! whose notes it is. They are separate calls because each caller does its own work
//! between them: the search journals the attempt and records its step later, in attempt
//! order; the recording reads the crashes its replay caused before the screenshot.

use std::path::Path;
use std::time::Instant;

use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::parallel::Job;
use whittle_core::plan::{ReplayPlan, ReplayStep};

use super::journal::{AttemptOutcome, JournalAttempt};
use super::stop_gate::StopGate;
use crate::client::Hub;
use crate::config::MaskingConfig;
use crate::evidence::{
    archive_screenshot, ArchivedShot, AttemptShot, BeforeLastAction, FilmSource, ShotOmission,
};
use crate::replay::{replay_observed, ReplayContext, ReplayError, ReplayObserver, ReplayVerdict};
use crate::watch::LiveWatch;

/// One job to replay on one device, and where its evidence goes.
pub(crate) struct Attempt<'a> {
    pub hub: &'a Hub,
    pub plan: &'a ReplayPlan,
    /// The run's replay context on the attempt's device (with that device's timing).
    pub ctx: &'a ReplayContext,
    pub job: &'a Job,
    /// The evidence session's folder: screenshots and frames are archived there.
    pub evidence_dir: &'a Path,
    pub masking: &'a MaskingConfig,
    pub cancel: &'a CancellationToken,
    /// Stops this job alone once the search no longer needs it (a guess whose branch
    /// was cut, `search.rs`), at the next point where that is safe (`stop_gate.rs`);
    /// `None` for a replay that is never a guess.
    pub unneeded: Option<&'a CancellationToken>,
}

/// What a cancel leaves of the attempt's screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShotAfterCancel {
    /// None, omitted as cancelled: a cancelled search touches the device no more, and
    /// its cancelled attempts are run again on resume.
    Omitted,
    /// Taken as after any replay: a cancelled recording still shows where it stopped.
    Taken,
}

/// A finished replay, before its screenshot.
pub(crate) struct Replayed<'a> {
    pub outcome: AttemptOutcome,
    pub duration_ms: u32,
    before_last: BeforeLastAction<'a>,
}

impl<'a> Attempt<'a> {
    /// Where the device's masked frames come from and go.
    pub(crate) fn frames(&self) -> FilmSource<'a> {
        FilmSource {
            hub: self.hub,
            device: &self.ctx.device,
            package: &self.ctx.package,
            evidence_dir: self.evidence_dir,
            masking: self.masking,
        }
    }

    /// Replays the job's candidate, cancellable, in a `replay` span. `looks` see each
    /// point of the replay first, then the frame before the last action is taken, then
    /// `watch`'s marker moves (the live view, when someone watches); `looks` come back
    /// with the replay.
    pub(crate) async fn replay<L: ReplayObserver + Send>(
        &self,
        looks: L,
        watch: Option<&LiveWatch<'_>>,
    ) -> (Replayed<'a>, L) {
        // A real device draws its own outcomes: `occurrence` is for simulated ones.
        let Job {
            attempt,
            phase,
            ref candidate,
            speculative,
            occurrence: _,
        } = *self.job;
        let device = self.ctx.device.as_str();
        let started = Instant::now();
        let span = tracing::info_span!("replay", attempt, phase = ?phase, candidate = ?candidate, device, speculative);
        let before_last = BeforeLastAction::new(
            self.frames(),
            attempt,
            candidate.last().and_then(|&i| self.plan.step(i)),
        );
        // First, so that nothing else looks once it parks the replay.
        let gate = StopGate::new(self.unneeded);
        let stopped = gate.stopped();
        let mut observers = (gate, ((looks, before_last), watch.map(LiveWatch::marker)));
        let replay = self.replay_candidate(&mut observers).instrument(span);
        let watched = async {
            match watch {
                Some(watch) => watch.during(replay).await,
                None => replay.await,
            }
        };
        let outcome = tokio::select! {
            biased;
            _ = self.cancel.cancelled() => AttemptOutcome::Cancelled,
            () = stopped => AttemptOutcome::Unneeded,
            r = watched => match r {
                Ok(verdict) => AttemptOutcome::Replayed { verdict },
                Err(e) => AttemptOutcome::Failed { cause: e.cause() },
            },
        };
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let (_, ((looks, before_last), _)) = observers;
        let replayed = Replayed {
            outcome,
            duration_ms,
            before_last,
        };
        (replayed, looks)
    }

    async fn replay_candidate(
        &self,
        observers: &mut (impl ReplayObserver + Send),
    ) -> Result<ReplayVerdict, ReplayError> {
        let steps: Vec<&ReplayStep> = self
            .job
            .candidate
            .iter()
            .map(|&i| {
                self.plan
                    .step(i)
                    .ok_or(ReplayError::UnknownStep { step: i })
            })
            .collect::<Result<_, _>>()?;
        replay_observed(self.hub, self.ctx, &steps, observers).await
    }

    /// Takes the attempt's screenshot (the frame after the replay, else the one before
    /// its last action) and returns the attempt's journal record, handed out in round
    /// `round` of `round_jobs` jobs.
    pub(crate) async fn journal_attempt(
        &self,
        replayed: Replayed<'_>,
        (round, round_jobs): (u32, u32),
        after_cancel: ShotAfterCancel,
    ) -> JournalAttempt {
        let Replayed {
            outcome,
            duration_ms,
            before_last,
        } = replayed;
        let job = self.job;
        let omitted = if matches!(outcome, AttemptOutcome::Unneeded) {
            // Its device is wanted for the next job at once; its screen proves nothing.
            Some(ShotOmission::Unneeded)
        } else {
            (after_cancel == ShotAfterCancel::Omitted && self.cancel.is_cancelled())
                .then_some(ShotOmission::Cancelled)
        };
        let shot = if let Some(why) = omitted {
            // The frame before is dropped unmasked; its temp file goes with it.
            drop(before_last);
            AttemptShot {
                shot: ArchivedShot {
                    src: None,
                    redacted: true,
                    omitted_because: Some(why),
                },
                before_step: None,
            }
        } else {
            let after = archive_screenshot(
                self.hub,
                &self.ctx.device,
                &self.ctx.package,
                self.evidence_dir,
                job.attempt,
                self.masking,
            )
            .await;
            before_last.choose(after)
        };
        JournalAttempt {
            round,
            round_jobs,
            attempt: job.attempt,
            phase: job.phase,
            candidate: job.candidate.clone(),
            speculative: job.speculative,
            device: self.ctx.device.clone(),
            outcome,
            duration_ms,
            screenshot_src: shot.shot.src,
            screenshot_redacted: shot.shot.redacted,
            screenshot_omitted: shot.shot.omitted_because,
            screenshot_before_step: shot.before_step,
            finished_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        }
    }
}
