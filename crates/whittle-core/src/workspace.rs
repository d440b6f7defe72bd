//! Listing the sessions of a workspace for the session browser and `whittle sessions`.
//! A malformed session is listed with its problem instead of failing the list: a
//! tester must see that it exists and why it cannot be used.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use thiserror::Error;

use crate::model::SessionStatus;
use crate::session::{
    read_crashes, read_meta, read_steps, validate_session_id, SessionError, SessionProblem,
    SESSIONS_DIR,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SessionSummary {
    /// The folder name (validated); meta's own `session_id` is not trusted for paths.
    pub session_id: String,
    pub name: String,
    pub created_at: String,
    pub status: Option<SessionStatus>,
    pub platform: String,
    pub package: Option<String>,
    pub step_count: u32,
    pub crash_count: u32,
    /// Distinct crash signatures.
    pub crash_groups: u32,
    /// Why the session cannot be used, if it cannot (the first problem met).
    pub problem: Option<SessionError>,
    /// For the evidence session of a minimize run: the session it minimized
    /// (`extra.original_session` of its meta, when that is a valid session id).
    pub evidence_of: Option<String>,
    /// How many evidence sessions of this workspace minimized this one.
    pub past_runs: u32,
    /// An imported flow that has not been run yet: its status is not a test's outcome.
    pub not_run: bool,
}

#[derive(Debug, Error)]
pub enum WorkspaceError {
    #[error("{} is not a Whittle workspace (it has no sessions folder)", .workspace.display())]
    NoSessionsFolder { workspace: PathBuf },
    #[error("cannot list {}: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Every folder in `<workspace>/sessions/`, newest first (by `created_at`, then by id).
/// Symbolic links are listed with a problem and never followed.
pub fn list_sessions(workspace: &Path) -> Result<Vec<SessionSummary>, WorkspaceError> {
    let sessions = workspace.join(SESSIONS_DIR);
    let entries = fs::read_dir(&sessions).map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            WorkspaceError::NoSessionsFolder {
                workspace: workspace.to_path_buf(),
            }
        } else {
            WorkspaceError::Unreadable {
                path: sessions.clone(),
                source,
            }
        }
    })?;
    let mut summaries = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| WorkspaceError::Unreadable {
            path: sessions.clone(),
            source,
        })?;
        let file_type = entry
            .file_type()
            .map_err(|source| WorkspaceError::Unreadable {
                path: entry.path(),
                source,
            })?;
        let session_id = entry.file_name().to_string_lossy().into_owned();
        if file_type.is_symlink() {
            let problem = SessionError::in_file(&session_id, SessionProblem::SymlinkedFolder);
            summaries.push(SessionSummary::with_problem(session_id, problem));
        } else if file_type.is_dir() {
            summaries.push(summarize(&entry.path(), session_id));
        }
    }
    count_past_runs(&mut summaries);
    summaries.sort_by(newest_first);
    Ok(summaries)
}

impl SessionSummary {
    fn with_problem(session_id: String, problem: SessionError) -> Self {
        SessionSummary {
            problem: Some(problem),
            ..SessionSummary::unread(session_id)
        }
    }

    fn unread(session_id: String) -> Self {
        SessionSummary {
            session_id,
            name: String::new(),
            created_at: String::new(),
            status: None,
            platform: String::new(),
            package: None,
            step_count: 0,
            crash_count: 0,
            crash_groups: 0,
            problem: None,
            evidence_of: None,
            past_runs: 0,
            not_run: false,
        }
    }
}

/// Reads what can be read; the first problem met is the summary's problem.
fn summarize(dir: &Path, session_id: String) -> SessionSummary {
    if let Err(e) = validate_session_id(&session_id) {
        let problem = SessionError::in_file(
            &session_id,
            SessionProblem::BadFolderName {
                detail: e.to_string(),
            },
        );
        return SessionSummary::with_problem(session_id, problem);
    }
    let mut summary = SessionSummary::unread(session_id);
    let mut problems = Vec::new();
    match read_meta(dir) {
        Ok(meta) => {
            summary.not_run = meta.not_run();
            summary.name = meta.name;
            summary.created_at = meta.created_at;
            summary.status = Some(meta.status);
            summary.platform = meta.platform;
            summary.package = meta.package;
            summary.evidence_of = meta
                .extra
                .get("original_session")
                .and_then(|v| v.as_str())
                .filter(|id| validate_session_id(id).is_ok())
                .map(str::to_owned);
        }
        Err(e) => problems.push(e),
    }
    let steps = match read_steps(dir) {
        Ok(steps) => Some(steps),
        Err(e) => {
            problems.push(e);
            None
        }
    };
    let indexes: Option<BTreeSet<u32>> = steps
        .as_ref()
        .map(|steps| steps.iter().map(|s| s.index).collect());
    summary.step_count = steps.map_or(0, |s| saturating_u32(s.len()));
    match read_crashes(dir, indexes.as_ref()) {
        Ok(crashes) => {
            summary.crash_count = saturating_u32(crashes.len());
            summary.crash_groups = saturating_u32(crate::signature::group_crashes(&crashes).len());
        }
        Err(e) => problems.push(e),
    }
    summary.problem = problems.into_iter().next();
    summary
}

/// Each session's `past_runs`: the evidence sessions that name it.
fn count_past_runs(summaries: &mut [SessionSummary]) {
    let mut counts = std::collections::HashMap::<String, u32>::new();
    for s in summaries.iter() {
        if let Some(original) = &s.evidence_of {
            *counts.entry(original.clone()).or_default() += 1;
        }
    }
    for s in summaries.iter_mut() {
        s.past_runs = counts.get(&s.session_id).copied().unwrap_or(0);
    }
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Newest first; sessions whose `created_at` is not RFC 3339 come last; ties by id,
/// descending (ids start with their creation time).
fn newest_first(a: &SessionSummary, b: &SessionSummary) -> Ordering {
    let time = |s: &SessionSummary| DateTime::<FixedOffset>::parse_from_rfc3339(&s.created_at).ok();
    match (time(a), time(b)) {
        (Some(ta), Some(tb)) => tb.cmp(&ta),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| b.session_id.cmp(&a.session_id))
}
