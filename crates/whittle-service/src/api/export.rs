//! Exporting a finished run as a bug-ticket bundle into a folder the user chose. A
//! bundle is never overwritten: a name given explicitly must be free; without one the
//! bundle takes the evidence session's id, or `-2`, `-3`… when that exists. The folder
//! is the tester's own (the window's folder picker, `whittle export --out`): opened once,
//! as its path says, and every bundle of the request is made inside that handle.

use std::path::{Path, PathBuf};

use super::evidence_bundle::{export_evidence, EvidenceExportError};
use crate::export::{ExportDir, ExportError};

/// More than this many bundles of one run in one folder is not a reason to go on.
const MAX_SUFFIX: u32 = 100;

/// What to export, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    pub evidence_session: String,
    /// The folder the bundle goes into; it must be a full path (created if missing).
    pub folder: PathBuf,
    /// The bundle's folder name; `None` picks a free one (see the module documentation).
    pub name: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportRunError {
    #[error("choose a full folder path (got “{}”)", .0.display())]
    NotAbsolute(PathBuf),
    #[error("cannot create {}: {source}", .folder.display())]
    Folder {
        folder: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Export(#[from] EvidenceExportError),
}

impl ExportRunError {
    /// The stable code; a bundle that failed keeps its own.
    pub fn code(&self) -> &'static str {
        match self {
            ExportRunError::NotAbsolute(_) => "folder_not_absolute",
            ExportRunError::Folder { .. } => "folder_unwritable",
            ExportRunError::Export(e) => e.code(),
        }
    }
}

/// Writes the bundle of `request.evidence_session` (a run of `workspace`) and returns
/// its folder.
pub fn export(workspace: &Path, request: &ExportRequest) -> Result<PathBuf, ExportRunError> {
    let folder = &request.folder;
    if !folder.is_absolute() {
        return Err(ExportRunError::NotAbsolute(folder.clone()));
    }
    let folder = ExportDir::create(folder).map_err(|source| ExportRunError::Folder {
        folder: folder.clone(),
        source,
    })?;
    let folder = &folder;
    let evidence = &request.evidence_session;
    if let Some(name) = &request.name {
        return Ok(export_evidence(workspace, evidence, folder, name)?);
    }
    let mut suffix = 1;
    loop {
        let name = match suffix {
            1 => evidence.clone(),
            n => format!("{evidence}-{n}"),
        };
        match export_evidence(workspace, evidence, folder, &name) {
            Err(EvidenceExportError::Export(ExportError::Exists(_))) if suffix < MAX_SUFFIX => {
                suffix += 1;
            }
            other => return Ok(other?),
        }
    }
}
