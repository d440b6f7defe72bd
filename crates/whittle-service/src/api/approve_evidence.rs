//! Approving a finished run from its evidence alone (`whittle approve <evidence>`): the
//! run whose approval was never given — `--approve` left out, the prompt unanswered, the
//! process killed after its search finished but before the write-back — is checked as
//! the window checks a reopened run ([`super::evidence_check::approvable_from_files`]),
//! and its entry written into the original session's sidecar — unless the sidecar holds a
//! newer approval of the crash and the request does not say to replace it.

use std::path::{Path, PathBuf};

use whittle_core::model::MinimizedEntry;

use super::approval::{approve, Approvable, Approval, Replace};
use super::evidence_check::{approvable_from_files, NotApprovable};
use super::session_error::{found_dir, read_run, SessionReadError, UnreadableEvidence};
use crate::result::ApproveError;
use crate::run::lock_is_held;

/// Which run to approve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApproveRequest {
    /// The evidence session's id, or its folder inside the workspace.
    pub evidence_session: String,
    /// The crash the user means to approve; when given, it must be the run's.
    pub crash: Option<String>,
    /// Whether a newer approval of the crash may be replaced (`--replace`).
    pub replace: Replace,
}

#[derive(Debug, thiserror::Error)]
pub enum ApproveRunError {
    #[error(transparent)]
    Session(#[from] SessionReadError),
    #[error(transparent)]
    Unreadable(#[from] UnreadableEvidence),
    #[error("evidence session {evidence} is not a minimize run")]
    NotARun { evidence: String },
    #[error("the run of {evidence} is still going on; approve it once it ended")]
    Running { evidence: String },
    #[error("evidence session {evidence} has no result to approve: {detail}")]
    NoResult { evidence: String, detail: String },
    #[error("the run of {evidence} minimized crash {crash_id}, not {asked}")]
    OtherCrash {
        evidence: String,
        crash_id: String,
        asked: String,
    },
    #[error("{evidence} cannot be approved: {source}")]
    NotApprovable {
        evidence: String,
        #[source]
        source: NotApprovable,
    },
    #[error("the result of {evidence} changed on disk since it was shown; open it again to see what approval would write")]
    ChangedSinceShown { evidence: String },
    #[error("the result was not written: {0}")]
    Write(#[from] ApproveError),
}

impl ApproveRunError {
    /// The stable code; a session or a write that failed keeps its own.
    pub fn code(&self) -> &'static str {
        match self {
            ApproveRunError::Session(e) => e.code(),
            ApproveRunError::Unreadable(e) => e.code(),
            ApproveRunError::NotARun { .. } => "not_a_run",
            ApproveRunError::Running { .. } => "running",
            ApproveRunError::NoResult { .. } => "no_result",
            ApproveRunError::OtherCrash { .. } => "other_crash",
            ApproveRunError::NotApprovable { source, .. } => source.code(),
            ApproveRunError::ChangedSinceShown { .. } => "changed_since_shown",
            ApproveRunError::Write(e) => e.code(),
        }
    }
}

/// Checks the run of `request.evidence_session` in `workspace` and writes its entry.
pub fn approve_evidence(
    workspace: &Path,
    request: &ApproveRequest,
) -> Result<(PathBuf, Approval), ApproveRunError> {
    let approvable = checked(
        workspace,
        &request.evidence_session,
        request.crash.as_deref(),
    )?;
    Ok(approve(&approvable, request.replace)?)
}

/// The window's Approve: `shown` is the entry its result view previewed (of a run it
/// watched, or reopened from disk). The evidence on disk is checked again now, as
/// `whittle approve` checks it — a folder can be rewritten while the window shows it —
/// and must still give that very entry; then `shown` is written, its stamp unchanged.
pub fn approve_shown(
    workspace: &Path,
    shown: &Approvable,
    replace: Replace,
) -> Result<(PathBuf, Approval), ApproveRunError> {
    let evidence = &shown.pending.evidence_session;
    let fresh = checked(workspace, evidence, Some(&shown.pending.crash_id))?;
    let unstamped = |entry: &MinimizedEntry| MinimizedEntry {
        approved_at: String::new(),
        ..entry.clone()
    };
    if unstamped(&fresh.entry) != unstamped(&shown.entry) {
        return Err(ApproveRunError::ChangedSinceShown {
            evidence: evidence.clone(),
        });
    }
    let approvable = Approvable {
        run_started_at: fresh.run_started_at,
        ..shown.clone()
    };
    Ok(approve(&approvable, replace)?)
}

/// The run of `asked` in `workspace`, checked from its files, with the entry approving
/// it would write.
fn checked(
    workspace: &Path,
    asked: &str,
    crash: Option<&str>,
) -> Result<Approvable, ApproveRunError> {
    let dir = found_dir(workspace, asked)?;
    let evidence = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(asked)
        .to_owned();
    if lock_is_held(&dir) {
        return Err(ApproveRunError::Running { evidence });
    }
    let recorded = read_run(&dir, &evidence)?;
    let Some(session_id) = recorded.original_session.clone() else {
        return Err(ApproveRunError::NotARun { evidence });
    };
    let result = match &recorded.result {
        Ok(result) => result,
        Err(why) => {
            return Err(ApproveRunError::NoResult {
                evidence,
                detail: why.to_string(),
            })
        }
    };
    if let Some(asked) = crash.filter(|c| *c != result.crash_id) {
        return Err(ApproveRunError::OtherCrash {
            evidence,
            crash_id: result.crash_id.clone(),
            asked: asked.to_owned(),
        });
    }
    approvable_from_files(workspace, &session_id, &evidence, &recorded, result).map_err(|source| {
        ApproveRunError::NotApprovable {
            evidence: evidence.clone(),
            source,
        }
    })
}
