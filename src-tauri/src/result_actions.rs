//! The results this window holds: a past run reopened from its evidence (remembered so
//! it can be approved and exported), and approval and export of a finished run's
//! result. Approval writes the entry the result view previewed, after checking the
//! evidence on disk once more (the journal's seal, the steps and the result against it)
//! and that no newer approval would be replaced without the tester's say-so.

use std::path::{Path, PathBuf};

use whittle_service::api::{
    self, approve_shown, Approval, ApproveError, ApproveRunError, ExportRequest, ReopenedRun,
    Replace,
};

use crate::error::AppError;
use crate::newer_approval::NewerApprovalView;
use crate::runs::{FinishedRun, WindowRuns};

fn finished(runs: &WindowRuns, evidence_session: &str) -> Result<FinishedRun, AppError> {
    runs.finished(evidence_session)
        .ok_or_else(|| AppError::NoResult {
            evidence_session: evidence_session.to_owned(),
        })
}

/// A past minimize run of `session_id`, read from its evidence without replaying it. A
/// run this window watched keeps the result it held in memory; one read from disk is
/// remembered, so Approve and Export work on it as on a run of this window.
pub fn open_past_run(
    runs: &WindowRuns,
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
) -> Result<ReopenedRun, AppError> {
    let known = runs.finished(evidence_session);
    let held = known.as_ref().and_then(|f| f.approvable.as_ref());
    let reopened = api::reopen(workspace, session_id, evidence_session, held)?;
    if known.is_none() {
        runs.remember(
            evidence_session.to_owned(),
            FinishedRun {
                workspace: workspace.to_path_buf(),
                evidence_dir: reopened.evidence_dir,
                approvable: reopened.approvable,
            },
        );
    }
    Ok(reopened.run)
}

/// Writes the entry the result view previewed, unchanged, once the evidence on disk
/// still proves it. `replace` is the tester's yes to replacing a newer approval, given
/// after the window showed both (without it such an approval is kept and both come back
/// in the error).
pub fn approve(
    runs: &WindowRuns,
    evidence_session: &str,
    replace: bool,
) -> Result<Approval, AppError> {
    let run = finished(runs, evidence_session)?;
    let approvable = run.approvable.ok_or_else(|| AppError::ApproveFailed {
        reason: "this run's result may not be written back (the crash did not reproduce, or the capture or a server failed)".into(),
    })?;
    let replace = if replace {
        Replace::Newer
    } else {
        Replace::OnlyOlder
    };
    let (path, approval) =
        approve_shown(&run.workspace, &approvable, replace).map_err(|e| match &e {
            ApproveRunError::Write(ApproveError::Newer(newer)) => AppError::NewerApproval {
                reason: e.to_string(),
                newer: Box::new(NewerApprovalView::of(newer)),
            },
            _ => AppError::ApproveFailed {
                reason: e.to_string(),
            },
        })?;
    runs.allow_reveal(&path);
    Ok(approval)
}

/// Exports into `folder` as `<evidence session>` (or `-2`, `-3`… when that exists:
/// a bundle is never overwritten).
pub fn export(runs: &WindowRuns, evidence_session: &str, folder: &str) -> Result<String, AppError> {
    let run = finished(runs, evidence_session)?;
    let request = ExportRequest {
        evidence_session: evidence_session.to_owned(),
        folder: PathBuf::from(folder),
        name: None,
    };
    let bundle = api::export(&run.workspace, &request).map_err(|e| AppError::ExportFailed {
        reason: e.to_string(),
    })?;
    runs.allow_reveal(&bundle);
    Ok(bundle.display().to_string())
}
