//! Approval and export of a finished run's result, from what the run left in memory.

use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_service::evidence::{export_evidence, EvidenceExportError};
use whittle_service::export::ExportError;
use whittle_service::run::approve_entry;

use crate::error::AppError;
use crate::runs::{FinishedRun, Runs};

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct Approval {
    pub sidecar_path: String,
    /// The entry exactly as written, keyed by its crash id.
    pub written_text: String,
}

fn finished(runs: &Runs, evidence_session: &str) -> Result<FinishedRun, AppError> {
    runs.finished(evidence_session)
        .ok_or_else(|| AppError::NoResult {
            evidence_session: evidence_session.to_owned(),
        })
}

pub fn approve(runs: &Runs, evidence_session: &str) -> Result<Approval, AppError> {
    let pending = finished(runs, evidence_session)?
        .pending
        .ok_or_else(|| AppError::ApproveFailed {
            reason: "this run's result may not be written back (the crash did not reproduce, or the capture or a server failed)".into(),
        })?;
    let (path, entry) = approve_entry(&pending).map_err(|e| AppError::ApproveFailed {
        reason: e.to_string(),
    })?;
    runs.allow_reveal(&path);
    let keyed = serde_json::json!({ pending.crash_id: entry });
    Ok(Approval {
        sidecar_path: path.display().to_string(),
        written_text: serde_json::to_string_pretty(&keyed).unwrap_or_default(),
    })
}

/// Exports into `folder` as `<evidence session>` (or `-2`, `-3`… when that exists:
/// a bundle is never overwritten).
pub fn export(runs: &Runs, evidence_session: &str, folder: &str) -> Result<String, AppError> {
    let run = finished(runs, evidence_session)?;
    let failed = |reason: String| AppError::ExportFailed { reason };
    let folder = PathBuf::from(folder);
    if !folder.is_absolute() {
        return Err(failed(format!(
            "choose a full folder path (got “{}”)",
            folder.display()
        )));
    }
    std::fs::create_dir_all(&folder)
        .map_err(|e| failed(format!("cannot create {}: {e}", folder.display())))?;
    let bundle = export_unique(&run.workspace, evidence_session, &folder)
        .map_err(|e| failed(e.to_string()))?;
    runs.allow_reveal(&bundle);
    Ok(bundle.display().to_string())
}

fn export_unique(
    workspace: &Path,
    evidence_session: &str,
    folder: &Path,
) -> Result<PathBuf, EvidenceExportError> {
    let mut suffix = 1;
    loop {
        let name = match suffix {
            1 => evidence_session.to_owned(),
            n => format!("{evidence_session}-{n}"),
        };
        match export_evidence(workspace, evidence_session, folder, &name) {
            Err(EvidenceExportError::Export(ExportError::Exists(_))) if suffix < 100 => {
                suffix += 1;
            }
            other => return other,
        }
    }
}
