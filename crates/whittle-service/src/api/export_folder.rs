//! Where an export that a coding agent asks for may be written (`whittle mcp`'s `export`
//! tool): under the workspace's exports folder ([`default_export_folder`]) or a folder
//! of the config's `export.allowed_folders`, never inside the workspace's `sessions`
//! folder (an agent must not plant files beside the evidence a resume or an approval
//! trusts) and never anywhere else. The folder is refused, typed and naming the allowed
//! folders, when it is relative, takes a `.`/`..` step, lies outside them, or reaches
//! outside them through a symbolic link (docs/SECURITY.md, "Exports an agent asks for").
//!
//! The check names what may be written; the write itself ([`export_to_allowed_folder`])
//! does not trust that the path still says the same a moment later: it reaches the
//! folder from its allowed folder one step at a time, each step made if missing and
//! opened without following a link, and makes the bundle inside that handle
//! (`export/export_dir.rs`). A folder on the way swapped for a link after the check
//! refuses the export; it never carries it out of the allowed folder.

use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use whittle_core::session::SESSIONS_DIR;

use super::evidence_bundle::{export_evidence, EvidenceExportError};
use super::result_view::default_export_folder;
use crate::config::Config;
use crate::export::{BeneathError, ExportDir, ExportError};

/// A folder an agent's export may not be written to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error(
    "exports go under {}; {folder} is refused: {problem}",
    allowed.join(" or ")
)]
pub struct ExportFolderRefusal {
    /// The folder asked for, as given.
    pub folder: String,
    pub problem: FolderProblem,
    /// The folders an export may be written under: the workspace's exports folder
    /// first, then the config's `export.allowed_folders`.
    pub allowed: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FolderProblem {
    #[error("it is not an absolute path")]
    NotAbsolute,
    #[error("it takes a `.` or `..` step")]
    RelativeStep,
    #[error("it is inside the workspace's sessions folder")]
    InsideSessions,
    #[error("it is not under an allowed folder")]
    NotAllowed,
    #[error("a symbolic link on its way leads outside the allowed folder")]
    ThroughLink,
}

/// The folders an agent's export may be written under (see the module documentation).
pub fn export_folders(config: &Config) -> Vec<PathBuf> {
    std::iter::once(default_export_folder(&config.workspace))
        .chain(config.export.allowed_folders.iter().cloned())
        .collect()
}

/// Why an agent's export was not written.
#[derive(Debug, thiserror::Error)]
pub enum AgentExportError {
    /// The folder may not take it (checked before anything is made, or met on the way
    /// down: a link swapped in after the check).
    #[error(transparent)]
    Refused(#[from] ExportFolderRefusal),
    #[error(transparent)]
    Export(#[from] EvidenceExportError),
}

/// `folder` when an agent's export may be written there, else why not.
pub fn check_export_folder(config: &Config, folder: &Path) -> Result<PathBuf, ExportFolderRefusal> {
    check(config, folder).map(|_root| folder.to_path_buf())
}

/// Writes the bundle `name` of `evidence_session` into `folder`, which an agent asked for:
/// checked as [`check_export_folder`] does, then opened under its allowed folder without
/// following a link (the module documentation), the bundle made inside that handle.
pub fn export_to_allowed_folder(
    config: &Config,
    evidence_session: &str,
    folder: &Path,
    name: &str,
) -> Result<PathBuf, AgentExportError> {
    let out = open_export_folder(config, folder)?;
    Ok(export_evidence(
        &config.workspace,
        evidence_session,
        &out,
        name,
    )?)
}

/// The folder of an agent's export, checked and opened step by step below its allowed
/// folder (made where missing): a handle that is inside the allowed folder.
pub fn open_export_folder(config: &Config, folder: &Path) -> Result<ExportDir, AgentExportError> {
    let root = check(config, folder)?;
    let below = folder.strip_prefix(&root).unwrap_or(Path::new(""));
    ExportDir::create_beneath(&root, below).map_err(|e| match e {
        BeneathError::Link(_) => refusal(config, folder, FolderProblem::ThroughLink).into(),
        BeneathError::NotPlain { .. } => {
            refusal(config, folder, FolderProblem::RelativeStep).into()
        }
        BeneathError::Io { path, source } => {
            EvidenceExportError::Export(ExportError::Io { path, source }).into()
        }
    })
}

fn refusal(config: &Config, folder: &Path, problem: FolderProblem) -> ExportFolderRefusal {
    ExportFolderRefusal {
        folder: folder.display().to_string(),
        problem,
        allowed: export_folders(config)
            .iter()
            .map(|f| f.display().to_string())
            .collect(),
    }
}

/// The allowed folder `folder` is under, when an agent's export may be written there.
fn check(config: &Config, folder: &Path) -> Result<PathBuf, ExportFolderRefusal> {
    let allowed = export_folders(config);
    let refuse = |problem| refusal(config, folder, problem);
    if !folder.is_absolute() {
        return Err(refuse(FolderProblem::NotAbsolute));
    }
    if folder
        .components()
        .any(|c| matches!(c, Component::CurDir | Component::ParentDir))
    {
        return Err(refuse(FolderProblem::RelativeStep));
    }
    let sessions = config.workspace.join(SESSIONS_DIR);
    if folder.starts_with(&sessions) {
        return Err(refuse(FolderProblem::InsideSessions));
    }
    let root = allowed
        .iter()
        .find(|root| folder.starts_with(root))
        .ok_or_else(|| refuse(FolderProblem::NotAllowed))?;
    // What already exists of the folder must resolve where it says: no link on the way
    // from the allowed folder down may lead out of it, or into the sessions.
    let existing = deepest_existing(folder);
    if existing.starts_with(root) {
        let (Ok(reached), Ok(root)) = (existing.canonicalize(), root.canonicalize()) else {
            return Err(refuse(FolderProblem::ThroughLink));
        };
        if !reached.starts_with(&root) {
            return Err(refuse(FolderProblem::ThroughLink));
        }
        if sessions
            .canonicalize()
            .is_ok_and(|sessions| reached.starts_with(sessions))
        {
            return Err(refuse(FolderProblem::InsideSessions));
        }
    }
    Ok(root.clone())
}

/// `path` itself, or its nearest ancestor that exists (without following a final link:
/// a dangling link exists too, and must not be passed over).
fn deepest_existing(path: &Path) -> &Path {
    path.ancestors()
        .find(|p| std::fs::symlink_metadata(p).is_ok())
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(workspace: &Path, allowed: &[&Path]) -> Config {
        let text = serde_json::json!({
            "workspace": workspace,
            "mcpServers": {"s": {"command": "true"}},
            "export": {"allowed_folders": allowed},
        });
        Config::parse(&text.to_string(), &workspace.join("whittle.json")).unwrap()
    }

    #[test]
    fn only_the_exports_folder_and_the_allowed_ones_take_an_export() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(ws.join("sessions/s1")).unwrap();
        let tickets = dir.path().join("tickets");
        let config = config(&ws, &[&tickets]);
        let problem = |folder: &Path| check_export_folder(&config, folder).unwrap_err().problem;

        assert!(check_export_folder(&config, &ws.join("exports")).is_ok());
        assert!(check_export_folder(&config, &ws.join("exports/a/b")).is_ok());
        assert!(check_export_folder(&config, &tickets.join("t-1")).is_ok());
        assert_eq!(problem(&ws.join("sessions")), FolderProblem::InsideSessions);
        assert_eq!(
            problem(&ws.join("sessions/s1")),
            FolderProblem::InsideSessions
        );
        assert_eq!(problem(&ws), FolderProblem::NotAllowed);
        assert_eq!(problem(&ws.join("exports2")), FolderProblem::NotAllowed);
        assert_eq!(problem(Path::new("/tmp")), FolderProblem::NotAllowed);
        assert_eq!(problem(Path::new("exports")), FolderProblem::NotAbsolute);
        assert_eq!(
            problem(&ws.join("exports/../sessions")),
            FolderProblem::RelativeStep
        );

        // A link inside the exports folder that leads into the sessions, or out.
        std::fs::create_dir_all(ws.join("exports")).unwrap();
        std::os::unix::fs::symlink(ws.join("sessions"), ws.join("exports/in")).unwrap();
        std::os::unix::fs::symlink(dir.path(), ws.join("exports/out")).unwrap();
        assert_eq!(
            problem(&ws.join("exports/in/s1")),
            FolderProblem::ThroughLink
        );
        assert_eq!(
            problem(&ws.join("exports/out/x")),
            FolderProblem::ThroughLink
        );

        let refusal = check_export_folder(&config, &ws.join("sessions")).unwrap_err();
        assert_eq!(
            refusal.allowed,
            [
                ws.join("exports").display().to_string(),
                tickets.display().to_string()
            ],
            "the refusal names every allowed folder, the exports folder first"
        );
        assert!(refusal
            .to_string()
            .contains(&ws.join("exports").display().to_string()));
    }
}
