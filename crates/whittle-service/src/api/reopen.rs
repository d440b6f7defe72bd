//! Opening a past run from its evidence session, without replaying it: its attempts,
//! screenshots and result as the run left them (`crate::run::read_recorded_run`), as the
//! events a live run would have sent (so the same views show it) and the result view of
//! [`super::result_view`]. Its result may be approved when the evidence holds together
//! ([`super::evidence_check`]).

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::engine::Phase;

use super::approval::Approvable;
use super::evidence_check::{approvable_from_files, NotApprovable};
use super::result_view::{result_view, ApproveBlock, ResultFacts, RunResultView};
use super::session_error::{read_run, session_dir, valid_id, SessionReadError, UnreadableEvidence};
use crate::result::{PendingResult, RunSummary};
use crate::run::{
    approved_runs, read_journal, run_hint, RecordedAttempt, RecordedRun, RunEvent, RunHint,
};

/// The part of `report.md` shown under "Full report text" is capped at this size.
const MAX_REPORT_BYTES: u64 = 512 * 1024;

/// A past run as the window shows it: the run's events as if it were live (so the same
/// views show it), and its result.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReopenedRun {
    pub evidence_session: String,
    pub created_at: String,
    pub events: Vec<RunEvent>,
    /// Absent when the run left no result (interrupted).
    pub result: Option<RunResultView>,
    /// Steps of the evidence that are not attempt records (skipped when reading).
    pub unreadable_steps: u32,
}

/// A reopened run, with what approving and exporting it need.
#[derive(Debug, Clone)]
pub struct Reopened {
    pub run: ReopenedRun,
    pub evidence_dir: PathBuf,
    /// What approval would write: the caller's own in-memory result when it gave one,
    /// else the result read from the files once they held together.
    pub approvable: Option<Approvable>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReopenError {
    #[error(transparent)]
    Session(#[from] SessionReadError),
    #[error(transparent)]
    Unreadable(#[from] UnreadableEvidence),
    #[error("evidence session {evidence} is not a minimize run of session {session}")]
    NotARunOf { evidence: String, session: String },
}

impl ReopenError {
    /// The stable code: the session's own when the session is what failed.
    pub fn code(&self) -> &'static str {
        match self {
            ReopenError::Session(e) => e.code(),
            ReopenError::Unreadable(e) => e.code(),
            ReopenError::NotARunOf { .. } => "not_a_run_of",
        }
    }
}

/// Reads evidence session `evidence_session` of `session_id` in `workspace`. `held` is
/// the result the caller kept in memory from watching the run live, which wins over the
/// files (a file rewritten meanwhile cannot change what is approved).
pub fn reopen(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    held: Option<&Approvable>,
) -> Result<Reopened, ReopenError> {
    valid_id(session_id)?;
    let dir = session_dir(workspace, evidence_session)?;
    let recorded = read_run(&dir, evidence_session)?;
    if recorded.original_session.as_deref() != Some(session_id) {
        return Err(ReopenError::NotARunOf {
            evidence: evidence_session.to_owned(),
            session: session_id.to_owned(),
        });
    }
    let facts = match &recorded.result {
        Ok(result) => Some(facts(
            workspace,
            session_id,
            evidence_session,
            &dir,
            &recorded,
            result,
            held,
        )),
        Err(_) => None,
    };
    let view = facts.as_ref().map(|f| result_view(workspace, f));
    Ok(Reopened {
        run: ReopenedRun {
            evidence_session: evidence_session.to_owned(),
            created_at: recorded.created_at.clone(),
            events: events(
                evidence_session,
                &recorded,
                view.as_ref().map(|r| &r.summary),
            ),
            result: view,
            unreadable_steps: recorded.unreadable_steps,
        },
        evidence_dir: dir,
        approvable: facts.and_then(|f| f.approvable),
    })
}

fn facts(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    dir: &Path,
    recorded: &RecordedRun,
    result: &PendingResult,
    held: Option<&Approvable>,
) -> ResultFacts {
    let approved = approved_runs(workspace, session_id).get(&result.crash_id)
        == Some(&evidence_session.to_owned());
    let (approvable, approve_blocked) = match held {
        Some(held) => (Some(held.clone()), None),
        None => {
            match approvable_from_files(workspace, session_id, evidence_session, recorded, result) {
                Ok(approvable) => (Some(approvable), None),
                Err(NotApprovable::Ended { .. }) => (None, None),
                Err(NotApprovable::NotProvenHere { why, next }) => {
                    (None, Some(ApproveBlock::NotProvenHere { why, next }))
                }
                Err(NotApprovable::Inconsistent(e)) => (
                    None,
                    Some(ApproveBlock::Inconsistent {
                        detail: e.to_string(),
                    }),
                ),
            }
        }
    };
    ResultFacts {
        summary: RunSummary::of(result),
        purpose: result.purpose,
        report: report_text(dir),
        evidence_dir: Some(dir.to_path_buf()),
        approvable,
        approve_blocked,
        approved,
        failure: result.end.failure().map(whittle_text::failure_text),
        reopened: true,
        hint: reopened_hint(dir, result),
    }
}

/// The hint the run gave when it ended ([`run_hint`]), from the baseline tries its
/// journal's header recorded (`result.json` does not keep them). Only a run that did
/// not reproduce can have one, and its journal holds little more than its baseline, so
/// no other run's journal is read; a run without a readable journal gives none.
fn reopened_hint(dir: &Path, result: &PendingResult) -> Option<RunHint> {
    // No hint even after a single try: then none after more, and the journal is not read.
    run_hint(&result.end, 1)?;
    let tries = read_journal(dir).ok()?.header.baseline_tries;
    run_hint(&result.end, tries)
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
    events.extend(
        recorded
            .attempts
            .iter()
            .cloned()
            .map(RunEvent::AttemptFinished),
    );
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
