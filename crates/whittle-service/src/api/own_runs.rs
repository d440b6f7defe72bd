//! The minimize runs a front end started and has not seen end, kept in a small file in
//! its data folder (the app's `own-runs.json`): a run is added when its evidence session
//! exists and removed when it ends. One still listed at the next start was cut off with
//! the front end (killed, crashed, the machine went down); if its evidence says
//! interrupted, the window offers to resume or discard it first thing.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use whittle_core::session::{parse_meta, resolve_session_dir, validate_session_id, META_FILE};

use crate::atomic::{write_atomic, FileMode};
use crate::run::{can_resume, run_state, RunState};

pub const OWN_RUNS_FILE: &str = "own-runs.json";
/// A list longer than this is trimmed to its newest entries (it only ever holds a few).
const MAX_ENTRIES: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    workspace: PathBuf,
    evidence_session: String,
}

/// A run of this app that was interrupted, as the start banner shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InterruptedRun {
    pub evidence_session: String,
    /// The session it minimized, and which crash.
    pub session_id: String,
    pub crash_id: String,
    pub created_at: String,
    /// This app started it (and was closed while it ran).
    pub own: bool,
    /// It can go on from its journal (a run from before journals cannot).
    pub resumable: bool,
}

/// The app's own runs; without a file (tests, no data folder) it remembers nothing.
#[derive(Debug, Default)]
pub struct OwnRuns {
    file: Option<PathBuf>,
    lock: Mutex<()>,
}

impl OwnRuns {
    pub fn at(file: Option<PathBuf>) -> OwnRuns {
        OwnRuns {
            file,
            lock: Mutex::new(()),
        }
    }

    /// Remembers that this app runs `evidence_session` in `workspace`.
    pub fn started(&self, workspace: &Path, evidence_session: &str) {
        self.edit(|entries| {
            entries.retain(|e| e.evidence_session != evidence_session);
            entries.push(Entry {
                workspace: workspace.to_path_buf(),
                evidence_session: evidence_session.to_owned(),
            });
            let excess = entries.len().saturating_sub(MAX_ENTRIES);
            entries.drain(..excess);
        });
    }

    /// Forgets `evidence_session` (it ended, was resumed to its end, or was discarded).
    pub fn ended(&self, evidence_session: &str) {
        self.edit(|entries| entries.retain(|e| e.evidence_session != evidence_session));
    }

    fn contains(&self, workspace: &Path, evidence_session: &str) -> bool {
        self.read()
            .iter()
            .any(|e| e.workspace == workspace && e.evidence_session == evidence_session)
    }

    fn read(&self) -> Vec<Entry> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        std::fs::read(file)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    fn edit(&self, change: impl FnOnce(&mut Vec<Entry>)) {
        let Some(file) = &self.file else {
            return;
        };
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut entries = self.read();
        change(&mut entries);
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                let bytes = serde_json::to_vec_pretty(&entries).map_err(std::io::Error::other)?;
                write_atomic(file, &bytes, FileMode::Private)
            });
        // Losing this list only loses the start banner; the session list still shows
        // the run as interrupted.
        if let Err(e) = written {
            tracing::warn!(file = %file.display(), error = %e, "own runs not saved");
        }
    }
}

/// Every interrupted minimize run of `workspace` (its meta says running and nobody holds
/// its lock), oldest first; `own` marks the ones this app started.
pub fn interrupted_runs(workspace: &Path, own: &OwnRuns) -> Vec<InterruptedRun> {
    let Ok(sessions) = whittle_core::workspace::list_sessions(workspace) else {
        return Vec::new();
    };
    let mut found: Vec<InterruptedRun> = sessions
        .iter()
        .filter_map(|summary| {
            let session_id = summary.evidence_of.clone()?;
            validate_session_id(&summary.session_id).ok()?;
            let dir = resolve_session_dir(workspace, &summary.session_id).ok()?;
            let meta = parse_meta(std::fs::File::open(dir.join(META_FILE)).ok()?).ok()?;
            if run_state(&dir, meta.status) != RunState::Interrupted {
                return None;
            }
            Some(InterruptedRun {
                evidence_session: summary.session_id.clone(),
                session_id,
                crash_id: meta.extra.get("crash_id")?.as_str()?.to_owned(),
                created_at: summary.created_at.clone(),
                own: own.contains(workspace, &summary.session_id),
                resumable: can_resume(&dir),
            })
        })
        .collect();
    found.sort_by(|a, b| a.created_at.cmp(&b.created_at));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_remembered_until_they_end_and_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state").join(OWN_RUNS_FILE);
        let ws = Path::new("/ws");
        let runs = OwnRuns::at(Some(file.clone()));
        runs.started(ws, "e1");
        runs.started(ws, "e2");
        runs.ended("e1");
        let after_restart = OwnRuns::at(Some(file));
        assert!(!after_restart.contains(ws, "e1"));
        assert!(after_restart.contains(ws, "e2"));
        assert!(!after_restart.contains(Path::new("/other"), "e2"));
        assert!(!OwnRuns::default().contains(ws, "e2"), "no file, no memory");
    }
}
