//! The results this window holds: a past run reopened from its evidence (remembered so
//! it can be approved and exported), and approval and export of a finished run's
//! result, from what the run left in memory.

use std::path::{Path, PathBuf};

use whittle_service::api::{self, approve as write_back, Approval, ExportRequest, ReopenedRun};

use crate::error::AppError;
use crate::runs::{FinishedRun, Runs};

fn finished(runs: &Runs, evidence_session: &str) -> Result<FinishedRun, AppError> {
    runs.finished(evidence_session)
        .ok_or_else(|| AppError::NoResult {
            evidence_session: evidence_session.to_owned(),
        })
}

/// A past minimize run of `session_id`, read from its evidence without replaying it. A
/// run this window watched keeps the result it held in memory; one read from disk is
/// remembered, so Approve and Export work on it as on a run of this window.
pub fn open_past_run(
    runs: &Runs,
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

/// Writes the entry the result view previewed, unchanged.
pub fn approve(runs: &Runs, evidence_session: &str) -> Result<Approval, AppError> {
    let approvable = finished(runs, evidence_session)?
        .approvable
        .ok_or_else(|| AppError::ApproveFailed {
            reason: "this run's result may not be written back (the crash did not reproduce, or the capture or a server failed)".into(),
        })?;
    let (path, approval) = write_back(&approvable).map_err(|e| AppError::ApproveFailed {
        reason: e.to_string(),
    })?;
    runs.allow_reveal(&path);
    Ok(approval)
}

/// Exports into `folder` as `<evidence session>` (or `-2`, `-3`… when that exists:
/// a bundle is never overwritten).
pub fn export(runs: &Runs, evidence_session: &str, folder: &str) -> Result<String, AppError> {
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
