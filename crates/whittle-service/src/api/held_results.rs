//! What a front end does with the results its [`Runs`] hold: reopen a past run (kept, so
//! Approve and Export work on it as on a run of this front end), approve the result it
//! showed, and export it. Approval writes the entry the result view previewed, after
//! checking the evidence on disk once more (the journal's seal, the steps and the result
//! against it) and that no newer approval is replaced without the user's say-so; it and
//! export read what the front end holds in memory, never a result file an evidence
//! session could have had rewritten.

use std::path::{Path, PathBuf};

use super::approval::{Approval, Replace};
use super::approve_evidence::{approve_shown, ApproveRunError};
use super::export::{export, ExportRequest, ExportRunError};
use super::reopen::{reopen, ReopenError, ReopenedRun};
use super::runs::{FinishedRun, Runs};

/// Why a held result was not approved or exported.
#[derive(Debug, thiserror::Error)]
pub enum HeldResultError {
    /// No run of this front end, and no reopened one, has that evidence session.
    #[error("there is no result of evidence session {evidence_session} to approve or export")]
    NoResult { evidence_session: String },
    #[error("this run's result may not be written back (the crash did not reproduce, or the capture or a server failed)")]
    NotWritable,
    #[error(transparent)]
    Approve(#[from] ApproveRunError),
    #[error(transparent)]
    Export(#[from] ExportRunError),
}

impl HeldResultError {
    /// The stable code; an approval or an export that failed keeps its own.
    pub fn code(&self) -> &'static str {
        match self {
            HeldResultError::NoResult { .. } => "no_result",
            HeldResultError::NotWritable => "not_writable",
            HeldResultError::Approve(e) => e.code(),
            HeldResultError::Export(e) => e.code(),
        }
    }
}

impl<Task> Runs<Task> {
    fn held(&self, evidence_session: &str) -> Result<FinishedRun, HeldResultError> {
        self.finished(evidence_session)
            .ok_or_else(|| HeldResultError::NoResult {
                evidence_session: evidence_session.to_owned(),
            })
    }

    /// A past minimize run of `session_id`, read from its evidence without replaying it.
    /// A run this front end watched keeps the result it held in memory; one read from
    /// disk is remembered.
    pub fn reopen_run(
        &self,
        workspace: &Path,
        session_id: &str,
        evidence_session: &str,
    ) -> Result<ReopenedRun, ReopenError> {
        let known = self.finished(evidence_session);
        let held = known.as_ref().and_then(|f| f.approvable.as_ref());
        let reopened = reopen(workspace, session_id, evidence_session, held)?;
        if known.is_none() {
            self.remember(
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
    /// still proves it; the sidecar written may then be revealed.
    pub fn approve_held(
        &self,
        evidence_session: &str,
        replace: Replace,
    ) -> Result<Approval, HeldResultError> {
        let run = self.held(evidence_session)?;
        let approvable = run.approvable.ok_or(HeldResultError::NotWritable)?;
        let (path, approval) = approve_shown(&run.workspace, &approvable, replace)?;
        self.allow_reveal(&path);
        Ok(approval)
    }

    /// Exports into `folder` as `<evidence session>` (or `-2`, `-3`… when that exists: a
    /// bundle is never overwritten); the bundle may then be revealed.
    pub fn export_held(
        &self,
        evidence_session: &str,
        folder: PathBuf,
    ) -> Result<PathBuf, HeldResultError> {
        let run = self.held(evidence_session)?;
        let request = ExportRequest {
            evidence_session: evidence_session.to_owned(),
            folder,
            name: None,
        };
        let bundle = export(&run.workspace, &request)?;
        self.allow_reveal(&bundle);
        Ok(bundle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Runs = super::Runs<()>;

    #[test]
    fn nothing_is_approved_or_exported_that_this_front_end_does_not_hold() {
        let runs = Runs::default();
        let missing = runs.approve_held("e1", Replace::OnlyOlder).unwrap_err();
        assert!(
            matches!(&missing, HeldResultError::NoResult { evidence_session } if evidence_session == "e1")
        );
        assert!(matches!(
            runs.export_held("e1", PathBuf::from("/tmp")).unwrap_err(),
            HeldResultError::NoResult { .. }
        ));
        runs.remember(
            "e1".into(),
            FinishedRun {
                workspace: "/ws".into(),
                evidence_dir: "/ws/sessions/e1".into(),
                approvable: None,
            },
        );
        let not_writable = runs.approve_held("e1", Replace::Newer).unwrap_err();
        assert!(matches!(not_writable, HeldResultError::NotWritable));
        // Stable codes: a front end switches on them.
        assert_eq!(missing.code(), "no_result");
        assert_eq!(not_writable.code(), "not_writable");
    }

    #[test]
    fn an_approval_or_export_that_failed_keeps_its_own_code() {
        let changed = HeldResultError::Approve(ApproveRunError::ChangedSinceShown {
            evidence: "e1".into(),
        });
        assert_eq!(changed.code(), "changed_since_shown");
        let relative = HeldResultError::Export(ExportRunError::NotAbsolute("rel".into()));
        assert_eq!(relative.code(), "folder_not_absolute");
        let session = HeldResultError::Approve(ApproveRunError::Session(
            super::super::session_error::valid_id("a/b").unwrap_err(),
        ));
        assert_eq!(session.code(), "invalid_session_id");
    }
}
