//! Resuming an interrupted run (`whittle minimize --resume <evidence_session>`, the
//! window's *Resume*): the same evidence session goes on from its journal. Nothing is
//! touched until every check passed: nobody else holds the run, it did not finish with
//! a verdict, no newer approved run of its crash superseded it, the journal reads, the
//! session/crash/target/plan/app/Whittle still match and the user's strategy and budget
//! are the recorded ones, and the recorded attempts rebuild the engine. Then the journal
//! notes the resume, a new log capture starts, and the run continues: attempt numbers,
//! budget and the flaky latch go on where they were.

mod check;
mod discard;
mod error;
mod evidence_check;
mod mismatch;
mod restore;
mod superseded;

use std::collections::HashSet;
use std::num::NonZeroU32;
use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_core::engine::FailureCause;
use whittle_core::model::SessionStatus;
use whittle_core::session::{parse_meta, resolve_session_dir, META_FILE};
use whittle_core::strategy::SearchStrategy;

pub use check::session_files_hash;
pub use discard::discard;
pub use error::ResumeError;
pub(crate) use evidence_check::{difference_of, EvidenceDifference};
pub use mismatch::{Differences, ResumeMismatch};
pub use restore::{outcome_of, restore, RestoreError, Restored};

use super::evidence_session::EvidenceSession;
use super::evidence_step::{evidence_step, finished_event};
use super::journal::{read_journal, Journal, JournalAttempt, JournalContents};
use super::live::{drive, Continuation, Held};
use super::lock::{lock_is_held, RunLock};
use super::reproof::Reproof;
use super::ResumeMark;
use super::{
    prepare, read_recorded_run, Prepared, RunError, RunEvent, RunEvents, RunOutcome, RunSpec,
};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::read_result;
use evidence_check::first_difference;
use superseded::superseded_by;

/// What the user asked for when resuming; anything left out is what the run recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeOptions {
    /// The evidence session's id, or its folder inside the workspace.
    pub evidence_session: String,
    /// Another device, when the recorded one is gone.
    pub device: Option<String>,
    pub devices: Option<NonZeroU32>,
    /// Must be the recorded strategy and budget when given.
    pub strategy: Option<SearchStrategy>,
    pub max_replays: Option<NonZeroU32>,
    /// How long to wait for the device while another run holds it.
    pub wait_device: Option<std::time::Duration>,
}

impl ResumeOptions {
    pub fn new(evidence_session: impl Into<String>) -> ResumeOptions {
        ResumeOptions {
            evidence_session: evidence_session.into(),
            device: None,
            devices: None,
            strategy: None,
            max_replays: None,
            wait_device: None,
        }
    }
}

/// Resumes the run of evidence session `opts.evidence_session`. Refusals are `Err` and
/// leave the evidence as it was; once the run goes on, every ending is an outcome.
pub async fn resume(
    hub: &Hub,
    config: &Config,
    opts: ResumeOptions,
    on_event: impl RunEvents,
    cancel: CancellationToken,
) -> Result<RunOutcome, RunError> {
    let dir = resolve_session_dir(&config.workspace, &opts.evidence_session)
        .map_err(ResumeError::from)?;
    let evidence_id = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(&opts.evidence_session)
        .to_owned();
    // Held from the first look on: two resumes of one run can never both go on.
    let lock = RunLock::acquire(&dir).map_err(ResumeError::from)?;
    let contents = read_journal(&dir).map_err(ResumeError::from)?;
    ensure_unfinished(&dir, &evidence_id, &contents)?;
    if let Some(by) = superseded_by(&dir, &contents.header) {
        return Err(ResumeError::Superseded {
            evidence: evidence_id,
            by,
        }
        .into());
    }
    if let Some((attempt, difference)) = first_difference(&dir, &contents.attempts) {
        return Err(ResumeError::EvidenceDiffers {
            evidence: evidence_id,
            attempt,
            difference,
        }
        .into());
    }
    let header = &contents.header;
    let asked = check::check_asked(header, opts.strategy, opts.max_replays);
    if !asked.is_empty() {
        return Err(mismatch(&evidence_id, asked));
    }
    let recorded = |count: u32, what: &str| {
        NonZeroU32::new(count).ok_or_else(|| ResumeError::Unreadable {
            evidence: evidence_id.clone(),
            detail: format!("its journal records {what} 0"),
        })
    };
    let again = RunSpec {
        session: header.original_session.clone(),
        crash: Some(header.crash_id.clone()),
        max_replays: recorded(header.max_replays, "a budget of")?,
        device: opts.device.clone().or_else(|| Some(header.device.clone())),
        package: None,
        strategy: header.strategy,
        devices: match opts.devices {
            Some(devices) => devices,
            None => NonZeroU32::new(header.devices).unwrap_or(NonZeroU32::MIN),
        },
        baseline_tries: recorded(header.baseline_tries, "baseline tries of")?,
        wait_device: opts.wait_device,
        // A re-proof goes on from where it started: the candidates it journaled.
        reprove: header.reproves.as_ref().map(|evidence| Reproof {
            evidence_session: evidence.clone(),
            path: header.candidates.clone(),
        }),
    };
    let prepared = tokio::select! {
        biased;
        _ = cancel.cancelled() => return Err(RunError::Cancelled),
        prepared = prepare(hub, config, &again) => prepared?,
    };
    let mut run = match prepared {
        Prepared::Live(run) => run,
        Prepared::Static(run) => {
            return Err(ResumeError::NoLongerLive {
                evidence: evidence_id,
                reason: run.reason,
            }
            .into())
        }
    };
    // The run started when its journal says, not now: an approval made meanwhile is
    // newer than its result.
    run.started_at = header.started_at.clone();
    let differences = check::check_run(header, &run);
    if !differences.is_empty() {
        return Err(mismatch(&evidence_id, differences));
    }
    let engine = run.engine()?;
    let restored = restore(engine, &contents.rounds, &contents.attempts).map_err(|source| {
        ResumeError::Restore {
            evidence: evidence_id.clone(),
            source,
        }
    })?;
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }

    // Every check passed: from here on the run goes on in its evidence session.
    let (journal, contents) = Journal::reopen(&dir).map_err(ResumeError::from)?;
    let mark = ResumeMark {
        at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        after_attempts: restored.restored,
    };
    let evidence = EvidenceSession {
        id: evidence_id,
        dir: dir.clone(),
    };
    let (held, restored_events) = match journal.record_resume(&mark) {
        Ok(()) => (
            Held {
                journal: Some(&journal),
                setup_failure: None,
            },
            backfill(hub, &evidence, &contents.attempts).await,
        ),
        // A journal that cannot grow must not replay: the run ends failed, as before.
        Err(e) => (
            Held {
                journal: None,
                setup_failure: Some(FailureCause::NotSaved {
                    detail: format!("the run's journal cannot be written: {e}"),
                }),
            },
            Vec::new(),
        ),
    };
    tracing::info!(evidence = %evidence.id, after_attempts = mark.after_attempts, "resuming an interrupted run");
    let mut resumes = contents.resumes;
    resumes.push(mark);
    let continuation = Continuation {
        scheduler: restored.scheduler,
        cursor: restored.cursor,
        log: restored
            .log
            .into_iter()
            .map(|mut replay| {
                replay.server = hub.device_route(&replay.device).map(|r| r.server);
                replay
            })
            .collect(),
        resumes,
        restored: restored_events,
    };
    let outcome = drive(
        hub,
        config,
        &run,
        &evidence,
        continuation,
        held,
        &on_event,
        &cancel,
    )
    .await;
    drop(lock);
    Ok(outcome)
}

fn mismatch(evidence: &str, differences: Vec<ResumeMismatch>) -> RunError {
    ResumeError::Mismatch {
        evidence: evidence.to_owned(),
        differences: Differences(differences),
    }
    .into()
}

/// Whether the run of the evidence session in `dir` can be resumed now: it kept a
/// journal, nobody holds it, it was interrupted or ended without a verdict (a device,
/// capture or disk failure, or a cancel), was not discarded, and no newer approved run
/// of its crash superseded it (`superseded.rs`).
pub fn can_resume(dir: &Path) -> bool {
    if lock_is_held(dir) {
        return false;
    }
    let evidence = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    read_journal(dir).is_ok_and(|contents| {
        ensure_unfinished(dir, &evidence, &contents).is_ok()
            && superseded_by(dir, &contents.header).is_none()
    })
}

/// A run that ended with a verdict (minimized, or not reproduced) is done, and so is a
/// discarded one; one that was interrupted, or ended by a device, capture or disk
/// failure or a cancel, may go on.
fn ensure_unfinished(
    dir: &Path,
    evidence: &str,
    contents: &JournalContents,
) -> Result<(), ResumeError> {
    if contents.discarded.is_some() {
        return Err(ResumeError::Finished {
            evidence: evidence.to_owned(),
            end: None,
        });
    }
    let unreadable = |detail: String| ResumeError::Unreadable {
        evidence: evidence.to_owned(),
        detail,
    };
    let meta = std::fs::File::open(dir.join(META_FILE))
        .map_err(|e| unreadable(e.to_string()))
        .and_then(|file| parse_meta(file).map_err(|e| unreadable(e.to_string())))?;
    if meta.status == SessionStatus::Running {
        return Ok(());
    }
    let ended = match read_result(dir) {
        // Finalized without a readable result: it never reached its end.
        Err(_) => return Ok(()),
        Ok(result) => result.end,
    };
    if ended.is_interrupted() {
        Ok(())
    } else {
        Err(ResumeError::Finished {
            evidence: evidence.to_owned(),
            end: Some(ended),
        })
    }
}

/// The restored attempts as events for the window, and each one the report server has
/// not recorded (its step was lost when the run stopped) recorded now, so the evidence
/// holds every attempt the result counts.
async fn backfill(
    hub: &Hub,
    evidence: &EvidenceSession,
    attempts: &[JournalAttempt],
) -> Vec<RunEvent> {
    // Steps with a verdict only: a device error's step does not stand for a verdict.
    let recorded: HashSet<u32> = read_recorded_run(&evidence.dir)
        .map(|run| {
            run.attempts
                .iter()
                .filter(|a| a.verdict.is_verdict())
                .map(|a| a.attempt)
                .collect()
        })
        .unwrap_or_default();
    let mut events = Vec::new();
    let mut seen = HashSet::new();
    for entry in attempts.iter().rev() {
        if entry.outcome.verdict().is_none() || !seen.insert(entry.attempt) {
            continue;
        }
        if !recorded.contains(&entry.attempt) {
            let server = hub.device_route(&entry.device).map(|r| r.server);
            let step = evidence_step(&evidence.id, entry, server);
            if let Err(e) = hub.report().record_step(step).await {
                tracing::warn!(attempt = entry.attempt, error = %e, "a restored attempt's evidence step was not recorded");
            }
        }
        events.push(finished_event(entry));
    }
    events.reverse();
    events
}
