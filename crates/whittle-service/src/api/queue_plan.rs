//! Which crash groups a *Minimize all* queue holds: for one session or every session
//! of a workspace, each crash group (a [`CrashDetail`], named by its `crash_id`) in the
//! sessions' order, then the crashes' order. A crash group is in the queue to run when
//! its replay plan allows a live run; otherwise it is listed as skipped, with why
//! ([`QueueSkipReason::NoLiveRun`]), so nothing is silently left out.
//!
//! **Already minimized, still valid.** A crash group is skipped as
//! [`QueueSkipReason::AlreadyMinimized`] — unless the caller asks to include such groups
//! — when all of these hold, now:
//! - the session's sidecar (`crashes.minimized.json`) names an evidence session for the
//!   crash (its approved run, `approved_runs` / [`crate::run::PastRun::approved`]);
//! - that evidence session is a run of this session and crash, no process holds it, and
//!   its result can be read;
//! - [`approvable_from_files`] accepts that result as it stands: the run ended with a
//!   result that may be written back, and its evidence holds together with the session
//!   *as it is today* (the crash is still recorded with the same path, the minimal path
//!   is part of it, every counted attempt, the reproducing baseline and any final
//!   confirmation are in the evidence — `evidence_check.rs`).
//!
//! A sidecar entry whose evidence is gone, unreadable, inconsistent, or no longer
//! matches the session (it was re-recorded) does not count: that crash group is queued
//! again.
//!
//! **Minimized, not approved, unchanged since.** Likewise — and under the same "include
//! minimized" — a crash group is skipped as [`QueueSkipReason::MinimizedUnchanged`] when
//! its newest run (a discarded one aside: the tester ended it) found a result that may
//! be written back and that result passes the same checks now. A second *Minimize all*
//! minutes after the first then leaves the groups it just minimized to be reviewed and
//! approved, instead of replaying them again. A newer run that ended otherwise (not
//! reproduced, cancelled, interrupted, going on) is what the tester saw last: the group
//! is queued.
//!
//! **Unreadable sessions.** A session of the workspace that cannot be read holds no crash
//! group the queue could know of; it is listed in [`QueuePlan::unreadable`] with why
//! ([`SessionReadProblem`]), and the queue shows it as skipped
//! ([`QueueSkipReason::SessionUnreadable`]), so it is not left out silently.
//!
//! **Unfinished runs.** A queued crash group names its newest run that can go on from
//! its journal ([`QueueItem::resume`]) and its other unfinished runs
//! ([`QueueItem::left_behind`]); the queue resumes the one when its options fit and
//! discards the others (`queue_resume.rs`).

use std::path::Path;

use serde::Serialize;
use whittle_core::workspace::list_sessions;

use super::evidence_check::approvable_from_files;
use super::queue_resume::{unfinished_runs, ResumableRun};
use super::session_detail::{session_detail, CrashDetail, SessionDetail};
use super::session_error::{read_run, session_dir, SessionReadError};
use crate::run::{lock_is_held, PastRunOutcome};

/// Which sessions a queue is built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueueScope {
    /// Every recorded session of the workspace (evidence sessions of runs are not).
    Workspace,
    /// One session, by id.
    Session(String),
}

/// Why a crash group is in the queue but will not be run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueueSkipReason {
    /// Its approved result still validates (see the module documentation).
    AlreadyMinimized { evidence_session: String },
    /// Its newest run, not approved, found a result that may be written back and that
    /// still validates: the session has not changed since (see the module
    /// documentation). Approving or discarding it is the tester's next step.
    MinimizedUnchanged { evidence_session: String },
    /// Its replay plan does not allow a live run (a run would only give a static
    /// suggestion); `plan_problem` says why when the plan cannot be built at all.
    NoLiveRun { plan_problem: Option<String> },
    /// Not a crash group: a session of the workspace that cannot be read, so none of
    /// its crash groups can be queued. `detail` is the reader's own message.
    SessionUnreadable {
        problem: SessionReadProblem,
        detail: String,
    },
}

/// Why a session of the workspace cannot be read (from [`SessionReadError`]'s case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SessionReadProblem {
    /// Its folder's name is not a session id.
    InvalidId,
    /// Its folder went away while the queue was being built.
    NotFound,
    /// Its files cannot be read or parsed (a truncated `steps.jsonl`, ...).
    Unreadable,
}

impl From<&SessionReadError> for SessionReadProblem {
    fn from(error: &SessionReadError) -> Self {
        match error {
            SessionReadError::InvalidId { .. } => SessionReadProblem::InvalidId,
            SessionReadError::NotFound { .. } => SessionReadProblem::NotFound,
            SessionReadError::Unreadable { .. } | SessionReadError::Workspace { .. } => {
                SessionReadProblem::Unreadable
            }
        }
    }
}

/// One crash group of a queue, before it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueItem {
    pub session: String,
    pub crash_id: String,
    pub label: Option<String>,
    /// The recorded app's package: a queue run side by side gives the item only a
    /// device that has it installed.
    pub package: Option<String>,
    /// Set when the item is not to be run.
    pub skip: Option<QueueSkipReason>,
    /// The group's newest run that can go on from its journal: the item resumes it
    /// when it was started with the queue's options.
    pub resume: Option<ResumableRun>,
    /// The group's other unfinished runs (evidence session ids): discarded when the
    /// item runs, so none is resumed over its result later.
    pub left_behind: Vec<String>,
}

/// A session of the workspace that could not be read; the queue is built without it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UnreadableSession {
    pub session: String,
    pub problem: SessionReadProblem,
    pub detail: String,
}

impl UnreadableSession {
    /// How the queue lists it: skipped, with why.
    pub fn skip_reason(&self) -> QueueSkipReason {
        QueueSkipReason::SessionUnreadable {
            problem: self.problem,
            detail: self.detail.clone(),
        }
    }
}

/// What [`plan_queue`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueuePlan {
    pub items: Vec<QueueItem>,
    pub unreadable: Vec<UnreadableSession>,
}

/// The crash groups of `scope` in `workspace` (see the module documentation). With
/// `include_minimized`, a crash group whose approved result — or newest run's result,
/// not approved — still validates is queued like any other. An unreadable workspace, or the one session asked for, is an error;
/// in a workspace, an unreadable session is reported in [`QueuePlan::unreadable`].
pub fn plan_queue(
    workspace: &Path,
    scope: &QueueScope,
    include_minimized: bool,
) -> Result<QueuePlan, SessionReadError> {
    let mut plan = QueuePlan::default();
    let session_ids = match scope {
        QueueScope::Session(id) => {
            let detail = session_detail(workspace, id)?;
            add_session(&mut plan, workspace, &detail, include_minimized);
            return Ok(plan);
        }
        QueueScope::Workspace => list_sessions(workspace)
            .map_err(|source| SessionReadError::Workspace {
                workspace: workspace.to_path_buf(),
                source,
            })?
            .into_iter()
            .filter(|s| s.evidence_of.is_none())
            .map(|s| s.session_id),
    };
    for id in session_ids {
        match session_detail(workspace, &id) {
            Ok(detail) => add_session(&mut plan, workspace, &detail, include_minimized),
            Err(e) => plan.unreadable.push(UnreadableSession {
                session: id,
                problem: SessionReadProblem::from(&e),
                detail: e.to_string(),
            }),
        }
    }
    Ok(plan)
}

fn add_session(
    plan: &mut QueuePlan,
    workspace: &Path,
    detail: &SessionDetail,
    include_minimized: bool,
) {
    for crash in &detail.crashes {
        let skip = if !crash.plan.as_ref().is_some_and(|p| p.live_run_allowed) {
            Some(QueueSkipReason::NoLiveRun {
                plan_problem: crash.plan_problem.clone(),
            })
        } else if include_minimized {
            None
        } else {
            already_minimized(workspace, &detail.session_id, crash)
        };
        // A skipped group is left as it is, its unfinished runs included.
        let (resume, left_behind) = match skip {
            None => unfinished_runs(workspace, &crash.past_runs),
            Some(_) => (None, Vec::new()),
        };
        plan.items.push(QueueItem {
            session: detail.session_id.clone(),
            crash_id: crash.crash_id.clone(),
            label: crash.label.clone(),
            package: detail.package.clone(),
            skip,
            resume,
            left_behind,
        });
    }
}

/// Why `crash` needs no run now, if it does not: its approved result, else its newest
/// run's result, still validates (see the module documentation).
fn already_minimized(
    workspace: &Path,
    session_id: &str,
    crash: &CrashDetail,
) -> Option<QueueSkipReason> {
    let valid = |evidence: &String| {
        still_valid(workspace, session_id, crash, evidence).then(|| evidence.clone())
    };
    if let Some(evidence_session) = crash
        .past_runs
        .iter()
        .find(|r| r.approved)
        .and_then(|r| valid(&r.evidence_session))
    {
        return Some(QueueSkipReason::AlreadyMinimized { evidence_session });
    }
    let newest = crash
        .past_runs
        .iter()
        .filter(|r| r.outcome != PastRunOutcome::Discarded)
        .max_by(|a, b| a.created_at.cmp(&b.created_at))?;
    if !matches!(
        newest.outcome,
        PastRunOutcome::Minimized | PastRunOutcome::Unproven
    ) {
        return None;
    }
    valid(&newest.evidence_session)
        .map(|evidence_session| QueueSkipReason::MinimizedUnchanged { evidence_session })
}

/// Whether the result of `evidence`, a run of `crash`, still validates: no process
/// holds the run, it is of this session and crash, and [`approvable_from_files`]
/// accepts it against the session as it is now.
fn still_valid(workspace: &Path, session_id: &str, crash: &CrashDetail, evidence: &str) -> bool {
    let Ok(dir) = session_dir(workspace, evidence) else {
        return false;
    };
    if lock_is_held(&dir) {
        return false;
    }
    let Ok(recorded) = read_run(&dir, evidence) else {
        return false;
    };
    if recorded.original_session.as_deref() != Some(session_id) {
        return false;
    }
    let Ok(result) = recorded.result.as_ref() else {
        return false;
    };
    result.crash_id == crash.crash_id
        && approvable_from_files(workspace, session_id, evidence, &recorded, result).is_ok()
}
