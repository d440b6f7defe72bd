//! Opening a past run from its evidence session, without replaying it: its attempts,
//! screenshots and result as the run left them (`whittle_service::run::read_recorded_run`).
//!
//! Approval of a reopened run. A live run's approval writes what the run left in memory,
//! so a file rewritten meanwhile cannot change it. A reopened run has only the files, and
//! the window offers Approve for it all the same, because what approval writes is shown
//! in full before the user approves, and the evidence must first hold together:
//! - the sidecar goes to the original session's folder resolved inside the open
//!   workspace from the validated session id — never to a path read from the file;
//! - `result.json`, the evidence's `meta.json` and the session the window opened it under
//!   name the same original session, crash and evidence session; the crash exists and
//!   its recorded path is the result's original path; the minimal path is a subsequence
//!   of it;
//! - the result says it may be written back (baseline reproduced, no capture or device
//!   failure), and a "high" claim is backed by its flags (fixed point, 3/3, no flakiness,
//!   budget not exhausted);
//! - `steps.jsonl` holds every attempt counted, starting with a reproducing baseline, and
//!   a final confirmation claim by 3 reproducing replays of the minimal path.
//!
//! Whoever can rewrite all of these can also write `crashes.minimized.json` directly, so
//! approving a consistent reopened result grants nothing new; an inconsistent one is
//! shown read-only with what did not match (docs/SECURITY.md §12).

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::engine::{Phase, HIGH_CONFIDENCE_RUNS};
use whittle_core::model::Confidence;
use whittle_core::session::{load_session, resolve_session_dir, validate_session_id};
use whittle_service::run::{
    read_recorded_run, sidecar_entry, PendingResult, RecordedAttempt, RecordedRun, RunEvent,
    RunSummary,
};

use crate::error::AppError;
use crate::live_run::default_export_folder;
use crate::past_runs::approved_runs;
use crate::run_update::{ApproveBlock, RunResultView};
use crate::runs::{FinishedRun, Runs};

/// The part of `report.md` shown under "Full report text" is capped at this size.
const MAX_REPORT_BYTES: u64 = 512 * 1024;

/// A past run as the window shows it: the run's events as if it were live (so the same
/// views show it), and its result.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ReopenedRun {
    pub evidence_session: String,
    pub created_at: String,
    pub events: Vec<RunEvent>,
    /// Absent when the run left no result (interrupted).
    pub result: Option<RunResultView>,
    /// Steps of the evidence that are not attempt records (skipped when reading).
    pub unreadable_steps: u32,
}

fn unreadable(id: &str, reason: impl ToString) -> AppError {
    AppError::SessionUnreadable {
        id: id.to_owned(),
        reason: reason.to_string(),
    }
}

/// Reads evidence session `evidence_session` of `session_id` and remembers its result so
/// Approve and Export work on it as on a run of this window.
pub fn reopen(
    runs: &Runs,
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
) -> Result<ReopenedRun, AppError> {
    for id in [session_id, evidence_session] {
        validate_session_id(id).map_err(|reason| AppError::InvalidSessionId {
            id: id.to_owned(),
            reason: reason.to_string(),
        })?;
    }
    let dir = resolve_session_dir(workspace, evidence_session)
        .map_err(|e| unreadable(evidence_session, e))?;
    let recorded = read_recorded_run(&dir).map_err(|e| unreadable(evidence_session, e))?;
    if recorded.original_session.as_deref() != Some(session_id) {
        return Err(unreadable(
            evidence_session,
            format!("it is not a minimize run of session {session_id}"),
        ));
    }
    let result = match &recorded.result {
        Ok(result) => Some(result_view(
            runs,
            workspace,
            session_id,
            evidence_session,
            &dir,
            &recorded,
            result,
        )),
        Err(_) => None,
    };
    Ok(ReopenedRun {
        evidence_session: evidence_session.to_owned(),
        created_at: recorded.created_at.clone(),
        events: events(
            evidence_session,
            &recorded,
            result.as_ref().map(|r| &r.summary),
        ),
        result,
        unreadable_steps: recorded.unreadable_steps,
    })
}

fn result_view(
    runs: &Runs,
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    dir: &Path,
    recorded: &RecordedRun,
    result: &PendingResult,
) -> RunResultView {
    let approved = approved_runs(workspace, session_id).get(&result.crash_id)
        == Some(&evidence_session.to_owned());
    // A run of this window keeps its in-memory result; only a run read from disk is
    // validated and remembered.
    let in_memory = runs.finished(evidence_session).and_then(|f| f.pending);
    let (pending, approve_blocked) = match in_memory {
        Some(pending) => (Some(pending), None),
        None if !result.end.may_write_back() || !result.write_back_allowed => (None, None),
        None => match validate(workspace, session_id, evidence_session, recorded, result) {
            Ok(pending) => (Some(pending), None),
            Err(detail) => (None, Some(ApproveBlock::Inconsistent { detail })),
        },
    };
    if runs.finished(evidence_session).is_none() {
        runs.remember(
            evidence_session.to_owned(),
            FinishedRun {
                workspace: workspace.to_path_buf(),
                evidence_dir: dir.to_path_buf(),
                pending: pending.clone(),
            },
        );
    }
    let sidecar_preview = pending.as_ref().and_then(|pending| {
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let entry = sidecar_entry(pending, now).ok()?;
        serde_json::to_string_pretty(&serde_json::json!({ pending.crash_id.clone(): entry })).ok()
    });
    RunResultView {
        summary: summary_of(result),
        report: report_text(dir),
        pending,
        sidecar_preview,
        evidence_dir: Some(dir.display().to_string()),
        default_export_folder: default_export_folder(workspace).display().to_string(),
        exportable: result.rating.confidence.is_some(),
        approve_blocked,
        approved,
        failure: result.end.failure().map(whittle_text::failure_text),
        reopened: true,
    }
}

/// The `--json` summary of a result read from disk.
pub fn summary_of(result: &PendingResult) -> RunSummary {
    RunSummary {
        end: result.end.clone(),
        session: result.original_session.clone(),
        crash_id: result.crash_id.clone(),
        original_path: result.original_path.clone(),
        minimal_path: result.minimal_path.clone(),
        attempts: result.attempts,
        rating: result.rating,
        search: result.search,
        target_fingerprint: result.target_fingerprint.clone(),
        evidence_session: Some(result.evidence_session.clone()),
        warnings: result.warnings.clone(),
    }
}

fn report_text(dir: &Path) -> String {
    let Ok(file) = std::fs::File::open(dir.join("report.md")) else {
        return String::new();
    };
    let mut text = String::new();
    let _ = file.take(MAX_REPORT_BYTES).read_to_string(&mut text);
    text
}

/// The run as the events a live run would have sent.
fn events(
    evidence_session: &str,
    recorded: &RecordedRun,
    summary: Option<&RunSummary>,
) -> Vec<RunEvent> {
    let result = recorded.result.as_ref().ok();
    let devices = if recorded.devices.is_empty() {
        result.map(|r| vec![r.device.clone()]).unwrap_or_default()
    } else {
        recorded.devices.clone()
    };
    let mut events = vec![RunEvent::Started {
        evidence_session: evidence_session.to_owned(),
        plan_steps: Vec::new(),
        candidates: baseline(recorded)
            .map(|a| a.candidate.clone())
            .unwrap_or_default(),
        max_replays: result
            .map(|r| r.max_replays)
            .or(recorded.max_replays)
            .unwrap_or(0),
        device: devices.first().cloned().unwrap_or_default(),
        devices,
    }];
    events.extend(recorded.attempts.iter().map(|a| RunEvent::AttemptFinished {
        attempt: a.attempt,
        phase: a.phase,
        candidate: a.candidate.clone(),
        reproduced: a.reproduced,
        reason: a.reason.clone(),
        step: a.step,
        signature: a.signature.clone(),
        label: a.label.clone(),
        observed: a.observed.clone(),
        duration_ms: a.duration_ms.unwrap_or(0),
        screenshot: a.screenshot.clone(),
        screenshot_redacted: a.screenshot_redacted,
        device: a.device.clone(),
    }));
    if let Some(summary) = summary {
        events.push(RunEvent::Finished(summary.clone()));
    }
    events
}

fn baseline(recorded: &RecordedRun) -> Option<&RecordedAttempt> {
    recorded
        .attempts
        .iter()
        .find(|a| a.phase == Phase::Baseline)
}

/// The result, fit to be written back, or what does not hold together (see the module
/// documentation). The sidecar's folder is resolved here, not taken from the file.
pub fn validate(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    recorded: &RecordedRun,
    result: &PendingResult,
) -> Result<PendingResult, String> {
    let check = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_owned()) };
    check(
        result.evidence_session == evidence_session,
        "result.json names another evidence session",
    )?;
    check(
        result.original_session == session_id,
        "result.json names another original session",
    )?;
    check(
        recorded
            .crash_id
            .as_deref()
            .is_none_or(|c| c == result.crash_id),
        "meta.json and result.json name different crashes",
    )?;
    let original_dir: PathBuf = resolve_session_dir(workspace, session_id)
        .map_err(|e| format!("the original session cannot be found: {e}"))?;
    let session = load_session(&original_dir)
        .map_err(|e| format!("the original session cannot be read: {e}"))?;
    let crash = session
        .crash(&result.crash_id)
        .ok_or("the crash is not in the original session")?;
    check(
        crash.repro_path == result.original_path,
        "the original path differs from the crash's recorded path",
    )?;
    check(
        !result.minimal_path.is_empty()
            && is_subsequence(&result.minimal_path, &result.original_path),
        "the minimal path is not part of the original path",
    )?;
    check(
        result.write_back_allowed
            && result.rating.confidence.is_some()
            && result.end.may_write_back(),
        "the result does not allow writing back",
    )?;
    if result.rating.confidence == Some(Confidence::High) {
        let search = &result.search;
        check(
            result.converged
                && result.rating.complete
                && search.fixed_point_reached
                && search.final_confirmed
                && !search.flaky_observed
                && !search.budget_exhausted,
            "“high” confidence is not backed by the result's own flags",
        )?;
    }
    check(
        u32::try_from(recorded.attempts.len()).ok() == Some(result.attempts),
        "the evidence does not hold every attempt the result counts",
    )?;
    let base = recorded
        .attempts
        .first()
        .filter(|a| a.phase == Phase::Baseline && a.reproduced)
        .ok_or("the evidence has no reproducing baseline")?;
    if result.search.final_confirmed {
        let replayable: HashSet<u32> = base.candidate.iter().copied().collect();
        let kept: Vec<u32> = result
            .minimal_path
            .iter()
            .copied()
            .filter(|i| replayable.contains(i))
            .collect();
        // The search's own hits of the final path count towards the 3 (as in the engine).
        let hits = recorded
            .attempts
            .iter()
            .filter(|a| a.reproduced && a.candidate == kept)
            .count();
        check(
            hits >= HIGH_CONFIDENCE_RUNS,
            "the final confirmation is not in the evidence",
        )?;
    }
    Ok(PendingResult {
        original_session_dir: original_dir.display().to_string(),
        ..result.clone()
    })
}

fn is_subsequence(short: &[u32], long: &[u32]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|s| rest.any(|l| l == s))
}
