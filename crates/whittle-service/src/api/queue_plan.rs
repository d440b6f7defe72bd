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
use crate::run::lock_is_held;

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
    /// Its replay plan does not allow a live run (a run would only give a static
    /// suggestion); `plan_problem` says why when the plan cannot be built at all.
    NoLiveRun { plan_problem: Option<String> },
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
    pub detail: String,
}

/// What [`plan_queue`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueuePlan {
    pub items: Vec<QueueItem>,
    pub unreadable: Vec<UnreadableSession>,
}

/// The crash groups of `scope` in `workspace` (see the module documentation). With
/// `include_minimized`, a crash group whose approved result still validates is queued
/// like any other. An unreadable workspace, or the one session asked for, is an error;
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
            still_valid(workspace, &detail.session_id, crash)
                .map(|evidence_session| QueueSkipReason::AlreadyMinimized { evidence_session })
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

/// The evidence session of `crash`'s approved result, when that result still
/// validates (see the module documentation).
fn still_valid(workspace: &Path, session_id: &str, crash: &CrashDetail) -> Option<String> {
    let evidence = &crash
        .past_runs
        .iter()
        .find(|r| r.approved)?
        .evidence_session;
    let dir = session_dir(workspace, evidence).ok()?;
    if lock_is_held(&dir) {
        return None;
    }
    let recorded = read_run(&dir, evidence).ok()?;
    if recorded.original_session.as_deref() != Some(session_id) {
        return None;
    }
    let result = recorded.result.as_ref().ok()?;
    if result.crash_id != crash.crash_id {
        return None;
    }
    approvable_from_files(workspace, session_id, evidence, &recorded, result).ok()?;
    Some(evidence.clone())
}
