//! Writing the imported session: every file into a hidden temporary folder of the
//! workspace, fsynced, then one rename into `sessions/<id>`. A failure at any point
//! removes the temporary folder, so the workspace never holds half a session.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_json::json;
use whittle_core::import::{parse_flow_with, robo, FlowFormat, ImportedFlow, MAX_FLOW_BYTES};
use whittle_core::model::{app_of_process, SessionMeta, SessionStatus};
use whittle_core::session::{validate_session_id, META_FILE, SESSIONS_DIR, STEPS_FILE};

use super::{ImportFailure, ImportSummary};
use crate::atomic::sync_dir;

/// What to import and how to name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportOptions {
    pub format: FlowFormat,
    pub file: PathBuf,
    /// The session's name (default: the flow's own name, else the file's).
    pub name: Option<String>,
    /// The app, when the file does not name it.
    pub package: Option<String>,
    /// A Maestro flow's variables given from outside (`-e NAME=value`).
    pub variables: BTreeMap<String, String>,
    /// Values the user marks private: a step typing one is stored redacted.
    pub private_values: Vec<String>,
}

/// Imports `opts.file` as a new session of `workspace` and says what it made.
pub fn import_flow(workspace: &Path, opts: &ImportOptions) -> Result<ImportSummary, ImportFailure> {
    read_flow(workspace, opts)?.write()
}

/// A flow read, parsed and checked against its workspace, not written yet: what
/// `import --record` holds while it checks the device, so a refusal writes nothing.
#[derive(Debug)]
pub struct ReadFlow {
    workspace: PathBuf,
    flow: ImportedFlow,
    /// The file's own name, for meta.
    file: String,
    name: String,
    package: String,
}

impl ReadFlow {
    /// The app the flow is for.
    pub fn package(&self) -> &str {
        &self.package
    }
}

/// Every check of [`import_flow`] (name, workspace, file, format, package), writing
/// nothing.
pub fn read_flow(workspace: &Path, opts: &ImportOptions) -> Result<ReadFlow, ImportFailure> {
    if let Some(name) = &opts.name {
        validate_session_id(name).map_err(|_| ImportFailure::BadName(name.clone()))?;
    }
    let sessions = workspace.join(SESSIONS_DIR);
    if !sessions.is_dir() {
        return Err(ImportFailure::NoWorkspace(workspace.to_path_buf()));
    }
    let bytes = read_capped(&opts.file)?;
    let file = display_name(&opts.file);
    let mut flow = match opts.format {
        FlowFormat::Robo => robo::parse_for(&file, &bytes, opts.package.as_deref())?,
        format => parse_flow_with(format, &file, &bytes, &opts.variables)?,
    };
    flow.mark_private(&opts.private_values);
    let package = package_of(&flow, &file, opts.package.as_deref())?;
    let name = opts
        .name
        .clone()
        .or_else(|| flow.name.clone())
        .unwrap_or_else(|| stem(&opts.file));
    Ok(ReadFlow {
        workspace: workspace.to_path_buf(),
        flow,
        file,
        name,
        package,
    })
}

impl ReadFlow {
    /// Writes the session, whole or not at all, and says what it made.
    pub fn write(self) -> Result<ImportSummary, ImportFailure> {
        let ReadFlow {
            workspace,
            flow,
            file,
            name,
            package,
        } = self;
        write_session(&workspace, flow, &file, name, package)
    }
}

fn write_session(
    workspace: &Path,
    flow: ImportedFlow,
    file: &str,
    name: String,
    package: String,
) -> Result<ImportSummary, ImportFailure> {
    let sessions = workspace.join(SESSIONS_DIR);
    let now = chrono::Local::now();
    let created_at = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false);
    let steps: Vec<_> = flow
        .steps
        .iter()
        .zip(1u32..)
        .map(|(step, index)| step.to_step(index, &created_at, flow.format))
        .collect();
    let base = base_id(&now.format("%Y-%m-%d_%H%M%S").to_string(), &name);
    let meta = |session_id: &str| SessionMeta {
        session_id: session_id.to_owned(),
        name: name.clone(),
        created_at: created_at.clone(),
        // Nothing has failed yet: a run of the flow decides (see `record`).
        status: SessionStatus::Passed,
        platform: "android".into(),
        package: Some(package.clone()),
        device_id: None,
        app_version: None,
        extra: json!({ "import": {
            "format": flow.format.as_str(),
            "file": file,
            "recorded": false,
        }})
        .as_object()
        .cloned()
        .unwrap_or_default(),
    };
    let mut steps_text = String::new();
    for step in &steps {
        let line = serde_json::to_string(step).map_err(|e| write_error(&sessions, e))?;
        steps_text.push_str(&line);
        steps_text.push('\n');
    }
    let dir = commit(workspace, &sessions, &base, |dir, id| {
        let meta = serde_json::to_vec_pretty(&meta(id)).map_err(std::io::Error::other)?;
        write_synced(&dir.join(META_FILE), &meta)?;
        write_synced(&dir.join(STEPS_FILE), steps_text.as_bytes())
    })?;
    let session_id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (replayable, skipped) = ImportSummary::of_steps(&steps);
    Ok(ImportSummary {
        session_id,
        name,
        session_dir: dir.to_string_lossy().into_owned(),
        format: flow.format,
        package,
        steps: u32::try_from(steps.len()).unwrap_or(u32::MAX),
        replayable,
        skipped,
        notes: flow.notes,
    })
}

fn package_of(
    flow: &ImportedFlow,
    file: &str,
    given: Option<&str>,
) -> Result<String, ImportFailure> {
    if let Some(process) = given.filter(|p| app_of_process(p) != *p) {
        return Err(ImportFailure::ProcessNotPackage {
            process: process.to_owned(),
            package: app_of_process(process).to_owned(),
        });
    }
    match (flow.package.as_deref(), given) {
        (Some(in_file), Some(given)) if in_file != given => Err(ImportFailure::PackageConflict {
            file: file.to_owned(),
            in_file: in_file.to_owned(),
            given: given.to_owned(),
        }),
        (Some(p), _) | (None, Some(p)) if !p.trim().is_empty() => Ok(p.to_owned()),
        _ => Err(ImportFailure::NoPackage {
            file: file.to_owned(),
        }),
    }
}

/// The file, refused unread when it is larger than a flow can be.
fn read_capped(path: &Path) -> Result<Vec<u8>, ImportFailure> {
    let err = |source| ImportFailure::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(err)?;
    let mut bytes = Vec::new();
    // One byte past the cap, so the parser sees the file is too large and says so.
    file.take(MAX_FLOW_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(err)?;
    Ok(bytes)
}

/// The file's own name (never its folders: they may name a person) for errors and meta.
fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "flow".into())
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into())
}

/// `YYYY-MM-DD_HHMMSS_<name>` as the report server names sessions, the name reduced to
/// `[A-Za-z0-9_-]` and cut to fit the id's 128 characters.
pub(crate) fn base_id(stamp: &str, name: &str) -> String {
    let mut clean = String::new();
    for c in name.trim().chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
            c
        } else {
            '_'
        };
        if !(c == '_' && clean.ends_with('_')) {
            clean.push(c);
        }
    }
    let mut clean = clean.trim_matches('_').to_owned();
    if clean.is_empty() {
        clean = "imported".into();
    }
    clean.truncate(128 - 4 - stamp.len() - 1);
    format!("{stamp}_{clean}")
}

/// Fills a temporary folder with `fill`, then renames it to the first free
/// `sessions/<base>[-N]`. The temporary folder is removed on any failure.
fn commit(
    workspace: &Path,
    sessions: &Path,
    base: &str,
    fill: impl Fn(&Path, &str) -> std::io::Result<()>,
) -> Result<PathBuf, ImportFailure> {
    for attempt in 1..=99u32 {
        let id = if attempt == 1 {
            base.to_owned()
        } else {
            format!("{base}-{attempt}")
        };
        let target = sessions.join(&id);
        if target.exists() {
            continue;
        }
        // In the workspace itself, not in `sessions/`: the session list never shows it.
        let tmp = tempfile::Builder::new()
            .prefix(".whittle-import-")
            .tempdir_in(workspace)
            .map_err(|e| write_error(workspace, e))?;
        fill(tmp.path(), &id).map_err(|e| write_error(tmp.path(), e))?;
        sync_dir(tmp.path()).map_err(|e| write_error(tmp.path(), e))?;
        if target.exists() {
            continue;
        }
        std::fs::rename(tmp.path(), &target).map_err(|e| write_error(&target, e))?;
        // Renamed away: nothing left for the guard to remove.
        let _ = tmp.keep();
        sync_dir(sessions).map_err(|e| write_error(sessions, e))?;
        return Ok(target);
    }
    Err(write_error(
        sessions,
        std::io::Error::other(format!("no free session id for {base}")),
    ))
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn write_error(
    path: &Path,
    e: impl Into<Box<dyn std::error::Error + Send + Sync>>,
) -> ImportFailure {
    ImportFailure::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    }
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;
