//! *Minimize all* goes on where an earlier run of a crash group stopped, rather than
//! starting the group over (issue 40). Before it was, a second `--all` replayed every
//! interrupted group from the beginning and left the old runs listed as interrupted;
//! resuming one of them later could then replace the newer run's approval.
//!
//! - The group's newest run that can go on from its journal ([`crate::run::can_resume`]:
//!   interrupted, or ended by a cancel or an infrastructure failure; not superseded by a
//!   newer approval) is resumed when it was started with the options the queue runs
//!   with now (strategy, budget, baseline tries: what a resume refuses to change).
//! - Every other unfinished run of the group — older ones, one the queue does not
//!   resume because its options differ, one whose resume was refused — is discarded
//!   ([`crate::run::discard`]) when the group runs, so no run is left behind whose
//!   resume could overwrite the result the queue is about to produce. Their evidence
//!   stays readable.

use std::path::Path;

use whittle_core::session::resolve_session_dir;
use whittle_core::strategy::SearchStrategy;

use crate::run::{discard, read_journal, PastRun, PastRunOutcome, ResumeOptions, RunSpec};

/// A run of a crash group that a queue item may go on with, and the options it was
/// started with (its journal's header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumableRun {
    pub evidence_session: String,
    pub strategy: SearchStrategy,
    pub max_replays: u32,
    pub baseline_tries: u32,
}

impl ResumableRun {
    /// The run was started with the options of `spec`: resuming it goes on with the
    /// same search a fresh run of `spec` would start.
    pub fn fits(&self, spec: &RunSpec) -> bool {
        self.strategy == spec.strategy
            && self.max_replays == spec.max_replays.get()
            && self.baseline_tries == spec.baseline_tries.get()
    }

    /// The resume of this run with `spec`'s devices (a lane's device, or the pool asked
    /// for) and device wait; strategy and budget are given so a resume that would
    /// differ is refused.
    pub fn options(&self, spec: &RunSpec) -> ResumeOptions {
        let mut options = ResumeOptions::new(&self.evidence_session);
        options.device.clone_from(&spec.device);
        options.devices = Some(spec.devices);
        options.strategy = Some(spec.strategy);
        options.max_replays = Some(spec.max_replays);
        options.wait_device = spec.wait_device;
        options
    }
}

/// A crash group's unfinished runs among `runs` (its past runs): the newest one that
/// can be resumed, and every other unfinished one (interrupted, or resumable), which the
/// group's next run leaves behind.
pub fn unfinished_runs(workspace: &Path, runs: &[PastRun]) -> (Option<ResumableRun>, Vec<String>) {
    let mut unfinished: Vec<&PastRun> = runs
        .iter()
        .filter(|r| r.resumable || r.outcome == PastRunOutcome::Interrupted)
        .collect();
    unfinished.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    let mut resume = None;
    let mut left_behind = Vec::new();
    for run in unfinished {
        let header = run
            .resumable
            .then(|| resolve_session_dir(workspace, &run.evidence_session).ok())
            .flatten()
            .and_then(|dir| read_journal(&dir).ok())
            .map(|contents| contents.header);
        match header {
            Some(h) if resume.is_none() => {
                resume = Some(ResumableRun {
                    evidence_session: run.evidence_session.clone(),
                    strategy: h.strategy,
                    max_replays: h.max_replays,
                    baseline_tries: h.baseline_tries,
                })
            }
            _ => left_behind.push(run.evidence_session.clone()),
        }
    }
    (resume, left_behind)
}

/// Discards each of `runs` (evidence session ids of `workspace`). One that cannot be
/// discarded now — a live process took it up, or it ended meanwhile — is left as it
/// is: it is no longer a run left behind.
pub fn discard_left_behind(workspace: &Path, runs: &[String]) {
    for evidence in runs {
        match discard(workspace, evidence) {
            Ok(()) => {
                tracing::info!(%evidence, "unfinished run discarded: its crash group runs again")
            }
            Err(e) => tracing::warn!(%evidence, error = %e, "unfinished run not discarded"),
        }
    }
}
