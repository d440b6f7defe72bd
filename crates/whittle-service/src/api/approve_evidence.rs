//! Approving a finished run from its evidence alone (`whittle approve <evidence>`): the
//! run whose approval was never given — `--approve` left out, the prompt unanswered, the
//! process killed after its search finished but before the write-back — is checked as
//! the window checks a reopened run ([`super::evidence_check::approvable_from_files`]),
//! and its entry written into the original session's sidecar.

use std::path::{Path, PathBuf};

use super::approval::{approve, Approval};
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
    #[error("the result was not written: {0}")]
    Write(#[from] ApproveError),
}

/// Checks the run of `request.evidence_session` in `workspace` and writes its entry.
pub fn approve_evidence(
    workspace: &Path,
    request: &ApproveRequest,
) -> Result<(PathBuf, Approval), ApproveRunError> {
    let asked = &request.evidence_session;
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
        Err(detail) => {
            return Err(ApproveRunError::NoResult {
                evidence,
                detail: detail.clone(),
            })
        }
    };
    if let Some(asked) = request.crash.as_ref().filter(|c| **c != result.crash_id) {
        return Err(ApproveRunError::OtherCrash {
            evidence,
            crash_id: result.crash_id.clone(),
            asked: asked.clone(),
        });
    }
    let approvable = approvable_from_files(workspace, &session_id, &evidence, &recorded, result)
        .map_err(|source| ApproveRunError::NotApprovable {
            evidence: evidence.clone(),
            source,
        })?;
    Ok(approve(&approvable)?)
}
