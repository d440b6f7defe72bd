//! Seed Phases 2, 3 and 5 for a prepared live run. Once the evidence session exists,
//! every path — success, failure, cancellation — goes through `finish`, which stops the
//! capture and finalizes the session ("try/finally" of the seed).

use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_core::assessment::{assess, minimal_path, Assessment};
use whittle_core::engine::SearchResult;
use whittle_core::model::SessionStatus;
use whittle_core::parallel::Scheduler;
use whittle_core::report_text::{render_proof_table, render_report, ReportInput};

use super::decode_warnings::{report_block, write_decode_warnings};
use super::evidence_session::{
    evidence_extra, evidence_name, stop_problem, DeviceCapture, EvidenceSession,
};
use super::journal::{Journal, JournalHeader, ResumeMark, JOURNAL_FORMAT};
use super::lock::RunLock;
use super::pool_record::{write_pool_record, PoolRecord, POOL_FILE};
use super::resume::{resumed_block, session_files_hash};
use super::rounds::RoundCursor;
use super::search::{PoolReplay, Search};
use super::{
    LiveRun, PendingResult, PlanEntry, RunError, RunEvent, RunNotice, RunOutcome, RunStatus,
    RunSummary, DECODE_WARNINGS_FILE,
};
use crate::client::Hub;
use crate::config::Config;
use crate::evidence::{append_report_section, write_result};
use crate::export::safe_block;

/// How much of the target crash's stack a result keeps: the part a developer reads.
const MAX_STACK_LINES: usize = 60;

pub(crate) async fn run_live<E: Fn(RunEvent) + Send + Sync>(
    hub: &Hub,
    config: &Config,
    run: &LiveRun,
    on_event: &E,
    cancel: &CancellationToken,
) -> Result<RunOutcome, RunError> {
    let engine = run
        .strategy
        .reducer(run.plan.candidate_ids(), run.max_replays)
        .map_err(|e| RunError::InvalidArgument(e.to_string()))?;
    let scheduler = Scheduler::new(engine);
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    let started = hub
        .report()
        .start_session(
            &evidence_name(&run.session_id),
            evidence_extra(run, config.masking.level),
        )
        .await?;
    let evidence = EvidenceSession {
        id: started.session_id,
        dir: started.session_dir.into(),
    };
    // The lock first: from here on, the session is never mistaken for an orphan.
    let lock = RunLock::acquire(&evidence.dir);
    let journal = match &lock {
        Ok(_) => Journal::create(&evidence.dir, &journal_header(run))
            .map_err(|e| format!("the run's journal cannot be written: {e}")),
        Err(e) => Err(format!("the evidence session cannot be locked: {e}")),
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
        candidates: run.plan.candidate_ids(),
        device: run.ctx.device.clone(),
        devices: u32::try_from(run.pool.len()).unwrap_or(u32::MAX),
        session_files: session_files_hash(&run.session.dir),
        app_version: run.app_version.clone(),
        whittle_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
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
    pub setup_failure: Option<String>,
}

/// Seed Phases 2 (capture), 3 and 5 on an evidence session that exists and is held.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn drive<E: Fn(RunEvent) + Send + Sync>(
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
    let start_failure = match hub
        .log()
        .start_capture(
            &evidence.id,
            &evidence.dir.to_string_lossy(),
            &run.ctx.device,
        )
        .await
    {
        Ok(_) => None,
        Err(e) => Some(format!("log capture did not start: {e}")),
    };
    let mut captures = vec![evidence.capture_for(&run.ctx.device, true)];
    if start_failure.is_none() {
        captures.extend(start_pool_captures(hub, run, evidence, on_event).await);
    }
    let plan_notices = run.plan.notices.iter().map(|notice| RunNotice::Plan {
        notice: notice.clone(),
    });
    for notice in plan_notices.chain(run.pool_warnings.iter().cloned()) {
        on_event(RunEvent::Notice { notice });
    }
    on_event(RunEvent::Started {
        evidence_session: evidence.id.clone(),
        plan_steps: run.plan.steps.clone(),
        candidates: run.plan.candidate_ids(),
        max_replays: run.max_replays,
        device: run.ctx.device.clone(),
        devices: captures.iter().map(|c| c.device.clone()).collect(),
    });
    restored.into_iter().for_each(on_event);
    if let Some(mark) = resumes.last() {
        on_event(RunEvent::Notice {
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
    };
    // A run without its lock or journal must not replay: it ends before the baseline.
    let stop_before_baseline = held.setup_failure.clone().or(start_failure);
    let mut result = search
        .run(&mut scheduler, &mut cursor, stop_before_baseline, &mut log)
        .await;
    if let Some(failure) = held.setup_failure {
        // Nothing ran, and not for the capture's sake: the failure is the run's own.
        if result.capture_failure.as_deref() == Some(failure.as_str()) {
            result.capture_failure = None;
        }
        result.runtime_failure.get_or_insert(failure);
    }
    // The finally of every extra device's capture; the primary's is in `finish`.
    for capture in &captures[1..] {
        if let Some(problem) = stop_problem(hub, &capture.capture_id).await {
            result
                .capture_failure
                .get_or_insert(format!("{problem} (device {})", capture.device));
        }
    }
    let devices_used: std::collections::BTreeSet<&str> =
        log.iter().map(|r| r.device.as_str()).collect();
    if captures.len() > 1 || devices_used.len() > 1 {
        let record = PoolRecord {
            devices: captures.iter().map(|c| c.device.clone()).collect(),
            wasted: scheduler.wasted(),
            replays: log,
        };
        if let Err(e) = write_pool_record(&evidence.dir, &record) {
            on_event(RunEvent::Notice {
                notice: RunNotice::FileNotWritten {
                    file: POOL_FILE.into(),
                    detail: e.to_string(),
                },
            });
        }
    }
    finish(hub, run, evidence, result, &resumes, on_event).await
}

/// Starts a capture on every extra pool device. A device whose capture does not start
/// leaves the pool with a warning (the pool is an optimisation; the primary's capture
/// is what the seed requires).
async fn start_pool_captures<E: Fn(RunEvent) + Send + Sync>(
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
            Err(detail) => on_event(RunEvent::Notice {
                notice: RunNotice::PoolDeviceLeftOut {
                    device: device.clone(),
                    detail,
                },
            }),
        }
    }
    started
}

/// Phase 5: stop the capture, assess, write result.json, finalize, append the story.
async fn finish<E: Fn(RunEvent) + Send + Sync>(
    hub: &Hub,
    run: &LiveRun,
    evidence: &EvidenceSession,
    mut result: SearchResult,
    resumes: &[ResumeMark],
    on_event: &E,
) -> RunOutcome {
    if let Some(problem) = stop_problem(hub, &evidence.id).await {
        result.capture_failure.get_or_insert(problem);
    }
    let mut pending = pending_result(run, evidence, &result, resumes);
    if let Err(e) = write_result(&evidence.dir, &pending) {
        result
            .runtime_failure
            .get_or_insert(format!("result not saved: {e}"));
        pending = pending_result(run, evidence, &result, resumes);
    }
    // Every answer of the run has been read by now except finalize's own.
    let decode_warnings = hub.decode_warnings();
    if let Err(e) = write_decode_warnings(&evidence.dir, &decode_warnings) {
        on_event(RunEvent::Warning {
            message: format!("{DECODE_WARNINGS_FILE} not written: {e}"),
        });
    }
    let assessment = assess(&result, run.identity);
    let minimal = pending.minimal_path.clone();
    let target = run
        .ctx
        .target
        .fingerprint()
        .unwrap_or(&run.target_label)
        .to_string();
    // A resumed run says so, and when, under the report's verdict.
    let render = |report: Option<&str>, result: &SearchResult, assessment: &Assessment| {
        render_report(&ReportInput {
            session: &run.session_id,
            crash_id: &run.crash.crash_id,
            original_path: &run.plan.repro_path,
            minimal_path: &minimal,
            target: &target,
            evidence_report: report,
            result,
            assessment,
        }) + &resumed_block(resumes)
    };
    let status = if assessment.write_back_allowed {
        SessionStatus::Passed
    } else {
        SessionStatus::Failed
    };
    let summary = render(None, &result, &assessment);
    let (report, assessment) = match hub.report().finalize(&evidence.id, status, &summary).await {
        Ok(done) => {
            let text = render(Some(&done.report_path), &result, &assessment)
                + &report_block(&decode_warnings);
            if let Err(e) = append_report_section(Path::new(&done.report_path), &text) {
                on_event(RunEvent::Notice {
                    notice: RunNotice::FileNotWritten {
                        file: "report.md".into(),
                        detail: e.to_string(),
                    },
                });
            }
            (text, assessment)
        }
        Err(e) => {
            result
                .runtime_failure
                .get_or_insert(format!("evidence session not finalized: {e}"));
            pending = pending_result(run, evidence, &result, resumes);
            let _ = write_result(&evidence.dir, &pending);
            let assessment = assess(&result, run.identity);
            let text = render(None, &result, &assessment) + &report_block(&decode_warnings);
            (text, assessment)
        }
    };

    let status = RunStatus::of(&result);
    let summary = RunSummary {
        status,
        session: run.session_id.clone(),
        crash_id: run.crash.crash_id.clone(),
        original_path: run.plan.repro_path.clone(),
        minimal_path: if result.baseline_reproduced {
            minimal
        } else {
            Vec::new()
        },
        attempts: result.attempts,
        confidence: assessment.confidence,
        complete: assessment.minimized_complete,
        fixed_point_reached: result.fixed_point_reached,
        final_confirmed: result.final_confirmed,
        flaky_observed: result.flaky_observed,
        budget_exhausted: result.budget_exhausted,
        target_fingerprint: run.ctx.target.fingerprint().map(str::to_string),
        evidence_session: Some(evidence.id.clone()),
        warnings: run
            .plan
            .warnings
            .iter()
            .cloned()
            .chain(run.pool_warnings.iter().map(|w| w.to_string()))
            .chain(assessment.warnings.iter().map(|w| w.to_string()))
            .chain(decode_warnings.iter().map(ToString::to_string))
            .collect(),
    };
    on_event(RunEvent::Finished(summary.clone()));
    RunOutcome {
        summary,
        report,
        pending: pending.write_back_allowed.then_some(pending),
        evidence_dir: Some(evidence.dir.clone()),
        search: Some(result),
        assessment: Some(assessment),
        static_suggestion: None,
        resumed: resumes.to_vec(),
    }
}

fn pending_result(
    run: &LiveRun,
    evidence: &EvidenceSession,
    result: &SearchResult,
    resumes: &[ResumeMark],
) -> PendingResult {
    let assessment = assess(result, run.identity);
    let minimal = minimal_path(&run.plan.repro_path, &run.plan.setup, &result.current);
    let screenshots = screenshot_files(&evidence.dir);
    PendingResult {
        status: Some(RunStatus::of(result)),
        original_session: run.session_id.clone(),
        original_session_dir: run.session.dir.to_string_lossy().to_string(),
        crash_id: run.crash.crash_id.clone(),
        evidence_session: evidence.id.clone(),
        original_path: run.plan.repro_path.clone(),
        minimal_plan: if result.baseline_reproduced {
            PlanEntry::for_path(&run.plan, &minimal)
        } else {
            Vec::new()
        },
        minimal_path: if result.baseline_reproduced {
            minimal
        } else {
            Vec::new()
        },
        attempts: result.attempts,
        max_replays: result.max_replays,
        confidence: assessment.confidence,
        complete: assessment.minimized_complete,
        converged: assessment.converged,
        fixed_point_reached: result.fixed_point_reached,
        final_confirmed: result.final_confirmed,
        flaky_observed: result.flaky_observed,
        budget_exhausted: result.budget_exhausted,
        capture_failure: result.capture_failure.clone(),
        runtime_failure: result.runtime_failure.clone(),
        write_back_allowed: assessment.write_back_allowed,
        warnings: assessment.warnings.iter().map(|w| w.to_string()).collect(),
        proof: result.proof.clone(),
        proof_lines: render_proof_table(result),
        target: run.ctx.target.clone(),
        target_fingerprint: run.ctx.target.fingerprint().map(str::to_string),
        target_label: run.target_label.clone(),
        package: run.ctx.package.clone(),
        app_version: run.app_version.clone(),
        device: run.ctx.device.clone(),
        device_name: run.device_name.clone(),
        os_version: run.os_version.clone(),
        target_stack: Some(safe_block(&run.crash.stack, MAX_STACK_LINES))
            .filter(|s| !s.trim().is_empty()),
        screenshots,
        resumed: (!resumes.is_empty()).then(|| resumes.to_vec()),
    }
}

fn screenshot_files(dir: &Path) -> Vec<String> {
    let folder = dir.join(crate::evidence::SCREENSHOTS_DIR);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with("attempt-") && n.ends_with(".png"))
        .map(|n| format!("{}/{n}", crate::evidence::SCREENSHOTS_DIR))
        .collect();
    names.sort();
    names
}
