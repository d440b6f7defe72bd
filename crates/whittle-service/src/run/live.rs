//! Phases 2 and 3 (docs/design.md §13) for a prepared live run, new or resumed. Once the evidence session
//! exists, every path — success, failure, cancellation — goes through `finish` (Phase 5,
//! `finish.rs`), which stops the capture and finalizes the session ("try/finally" of the
//! seed).

use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_core::engine::{FailureCause, SearchStop};
use whittle_core::parallel::Scheduler;

use super::evidence_session::{
    evidence_extra, evidence_name, stop_problem, DeviceCapture, EvidenceSession,
};
use super::finish::finish;
use super::journal::{Journal, JournalHeader, JOURNAL_FORMAT};
use super::lock::RunLock;
use super::pool_record::{write_pool_record, PoolRecord, PoolReplay, POOL_FILE};
use super::resume::session_files_hash;
use super::rounds::RoundCursor;
use super::search::Search;
use super::ResumeMark;
use super::{LiveRun, RunError, RunEvent, RunEvents, RunNotice, RunOutcome};
use crate::client::Hub;
use crate::config::Config;

pub(crate) async fn run_live<E: RunEvents>(
    hub: &Hub,
    config: &Config,
    run: &LiveRun,
    on_event: &E,
    cancel: &CancellationToken,
) -> Result<RunOutcome, RunError> {
    let engine = run.engine()?;
    let scheduler = Scheduler::new(engine);
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    let evidence = EvidenceSession::start(
        hub,
        &evidence_name(&run.session_id),
        evidence_extra(run, config.masking.level),
    )
    .await?;
    // The lock first: from here on, the session is never mistaken for an orphan.
    let lock = RunLock::acquire(&evidence.dir);
    let journal = match &lock {
        Ok(_) => Journal::create(&evidence.dir, &journal_header(run)).map_err(|e| {
            FailureCause::NotSaved {
                detail: format!("the run's journal cannot be written: {e}"),
            }
        }),
        Err(e) => Err(FailureCause::NotSaved {
            detail: format!("the evidence session cannot be locked: {e}"),
        }),
    };
    let (journal, setup_failure) = match journal {
        Ok(journal) => (Some(journal), None),
        Err(e) => (None, Some(e)),
    };
    let continuation = Continuation {
        scheduler,
        cursor: RoundCursor::default(),
        log: Vec::new(),
        resumes: Vec::new(),
        restored: Vec::new(),
    };
    let held = Held {
        journal: journal.as_ref(),
        setup_failure,
    };
    let outcome = drive(
        hub,
        config,
        run,
        &evidence,
        continuation,
        held,
        on_event,
        cancel,
    )
    .await;
    // Held to the very end: the session is finalized before anyone may resume it.
    drop(lock);
    Ok(outcome)
}

/// What the journal must record for a resume to check that it continues the same run.
pub(crate) fn journal_header(run: &LiveRun) -> JournalHeader {
    JournalHeader {
        format: JOURNAL_FORMAT,
        original_session: run.session_id.clone(),
        crash_id: run.crash.crash_id.clone(),
        target: run.ctx.target.clone(),
        strategy: run.strategy,
        max_replays: run.max_replays,
        baseline_tries: run.search_options.baseline_tries,
        candidates: run.plan.candidate_ids(),
        reproves: run.reproves.clone(),
        device: run.ctx.device.clone(),
        devices: u32::try_from(run.pool.len()).unwrap_or(u32::MAX),
        session_files: session_files_hash(&run.session.dir),
        app_version: run.app_version.clone(),
        whittle_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at: run.started_at.clone(),
    }
}

/// The engine and rounds a run goes on from: fresh, or rebuilt from a journal.
pub(crate) struct Continuation {
    pub scheduler: Scheduler,
    pub cursor: RoundCursor,
    pub log: Vec<PoolReplay>,
    pub resumes: Vec<ResumeMark>,
    /// The attempts answered from the journal, shown again before the run goes on.
    pub restored: Vec<RunEvent>,
}

/// The run's hold on its evidence: the journal attempts go to, or why there is none
/// (the run then ends before its baseline, as a runtime failure).
pub(crate) struct Held<'a> {
    pub journal: Option<&'a Journal>,
    pub setup_failure: Option<FailureCause>,
}

/// Phases 2 (docs/design.md §13) (capture), 3 and 5 on an evidence session that exists and is held.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn drive<E: RunEvents>(
    hub: &Hub,
    config: &Config,
    run: &LiveRun,
    evidence: &EvidenceSession,
    continuation: Continuation,
    held: Held<'_>,
    on_event: &E,
    cancel: &CancellationToken,
) -> RunOutcome {
    let Continuation {
        mut scheduler,
        mut cursor,
        mut log,
        resumes,
        restored,
    } = continuation;
    let start_failure = evidence
        .start_capture(hub, &run.ctx.device)
        .await
        .map(|detail| FailureCause::Capture {
            device: Some(run.ctx.device.clone()),
            detail,
        });
    let mut captures = vec![evidence.capture_for(&run.ctx.device, true)];
    if start_failure.is_none() {
        captures.extend(start_pool_captures(hub, run, evidence, on_event).await);
    }
    let plan_notices = run.plan.notices.iter().map(|notice| RunNotice::Plan {
        notice: notice.clone(),
    });
    for notice in plan_notices.chain(run.pool_warnings.iter().cloned()) {
        on_event.event(RunEvent::Notice { notice });
    }
    on_event.event(RunEvent::Started {
        evidence_session: evidence.id.clone(),
        plan_steps: run.plan.steps.clone(),
        candidates: run.plan.candidate_ids(),
        max_replays: run.max_replays,
        device: run.ctx.device.clone(),
        devices: captures.iter().map(|c| c.device.clone()).collect(),
    });
    restored.into_iter().for_each(|e| on_event.event(e));
    if let Some(mark) = resumes.last() {
        on_event.event(RunEvent::Notice {
            notice: RunNotice::Resumed {
                at: mark.at.clone(),
                after_attempts: mark.after_attempts,
            },
        });
    }
    let search = Search {
        hub,
        config,
        run,
        evidence,
        captures: &captures,
        on_event,
        cancel,
        journal: held.journal,
        omissions_told: Default::default(),
    };
    // A run without its lock or journal must not replay: it ends before the baseline.
    let stop_before_baseline = held.setup_failure.clone().or(start_failure);
    let mut result = search
        .run(&mut scheduler, &mut cursor, stop_before_baseline, &mut log)
        .instrument(tracing::debug_span!("search"))
        .await;
    if let Some(cause) = held.setup_failure {
        // Nothing ran, and not for the capture's sake: the failure is the run's own.
        result.stop = Some(SearchStop::RuntimeFailed { cause });
    }
    // The finally of every extra device's capture; the primary's is in `finish`.
    for capture in &captures[1..] {
        if let Some(detail) = stop_problem(hub, &capture.capture_id).await {
            result.stop.get_or_insert(SearchStop::CaptureFailed {
                cause: FailureCause::Capture {
                    device: Some(capture.device.clone()),
                    detail,
                },
            });
        }
    }
    let devices_used: std::collections::BTreeSet<&str> =
        log.iter().map(|r| r.device.as_str()).collect();
    if captures.len() > 1 || devices_used.len() > 1 {
        let record = PoolRecord::new(
            captures.iter().map(|c| c.device.clone()).collect(),
            run.pool_servers.clone(),
            scheduler.wasted(),
            log,
        );
        if let Err(e) = write_pool_record(&evidence.dir, &record) {
            on_event.event(RunEvent::Notice {
                notice: RunNotice::FileNotWritten {
                    file: POOL_FILE.into(),
                    detail: e.to_string(),
                },
            });
        }
    }
    finish(hub, run, evidence, result, &resumes, on_event)
        .instrument(tracing::debug_span!("finish"))
        .await
}

/// Starts a capture on every extra pool device. A device whose capture does not start
/// leaves the pool with a warning (the pool is an optimisation; the primary's capture
/// is what the seed requires).
async fn start_pool_captures<E: RunEvents>(
    hub: &Hub,
    run: &LiveRun,
    evidence: &EvidenceSession,
    on_event: &E,
) -> Vec<DeviceCapture> {
    let mut started = Vec::new();
    for device in run.pool.iter().filter(|d| **d != run.ctx.device) {
        let capture = evidence.capture_for(device, false);
        let made = std::fs::create_dir_all(&capture.dir);
        let outcome = match made {
            Err(e) => Err(format!("cannot create {}: {e}", capture.dir.display())),
            Ok(()) => hub
                .log()
                .start_capture(&capture.capture_id, &capture.dir.to_string_lossy(), device)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
        };
        match outcome {
            Ok(()) => started.push(capture),
            Err(detail) => on_event.event(RunEvent::Notice {
                notice: RunNotice::PoolDeviceLeftOut {
                    device: device.clone(),
                    detail,
                },
            }),
        }
    }
    started
}
