//! Follows a workspace's `sessions/` folder so a front end's session list and a
//! session's past runs change with it (a new recording, a run from the CLI, a deleted
//! session) — without a Reload button. Which changes matter is the evidence layout's
//! to say, so it is said here. `notify` (inotify on Linux) is the well-kept watcher; its
//! mini debouncer folds a burst (a run writes a screenshot and a step per attempt) into
//! one message per quiet period, which keeps the window from re-reading the workspace
//! for every file. Only the names of changed sessions are sent, never paths or content.
//! Reading a file is not a change ([`ChangesOnly`]).

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use notify_debouncer_mini::notify::{
    self, Event, EventHandler, EventKind, RecommendedWatcher, RecursiveMode, Watcher, WatcherKind,
};
use notify_debouncer_mini::{new_debouncer_opt, Config, DebounceEventResult, Debouncer};
use serde::Serialize;
use whittle_core::session::SESSIONS_DIR;

/// Changes closer together than this arrive as one message.
pub const DEBOUNCE: Duration = Duration::from_millis(700);

/// Files whose churn during a run says nothing the list shows (screenshots and the
/// log capture); a new attempt still changes `steps.jsonl`.
const IGNORED_PARTS: [&str; 3] = ["screenshots", "logcat.txt", "devices"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkspaceChange {
    /// The session folders that changed (folder names), sorted.
    pub sessions: Vec<String>,
}

/// The sessions folder could not be followed (which folder is `sessions`; the sentence
/// is what went wrong with it).
#[derive(Debug, thiserror::Error)]
#[error("its changes cannot be followed: {source}")]
pub struct WatchError {
    pub sessions: PathBuf,
    #[source]
    pub source: notify_debouncer_mini::notify::Error,
}

impl WatchError {
    pub fn code(&self) -> &'static str {
        "workspace_not_followed"
    }
}

/// The one watcher of a front end (a new workspace replaces it).
#[derive(Default)]
pub struct WorkspaceWatch {
    current: Mutex<Option<(PathBuf, Debouncer<ChangesOnly>)>>,
}

impl WorkspaceWatch {
    /// Watches `workspace/sessions` and calls `send` after each burst of changes. A
    /// workspace without that folder is not watched (it is not a workspace).
    pub fn watch(
        &self,
        workspace: &Path,
        send: impl Fn(WorkspaceChange) + Send + 'static,
    ) -> Result<(), WatchError> {
        let sessions = workspace.join(SESSIONS_DIR);
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        // Dropping the old debouncer stops its thread and its inotify watches.
        *current = None;
        if !sessions.is_dir() {
            return Ok(());
        }
        let root = sessions.clone();
        let config = Config::default().with_timeout(DEBOUNCE);
        let mut debouncer =
            new_debouncer_opt::<_, ChangesOnly>(config, move |events: DebounceEventResult| {
                let Ok(events) = events else { return };
                let changed = changed_sessions(&root, events.iter().map(|e| e.path.as_path()));
                if !changed.is_empty() {
                    send(WorkspaceChange {
                        sessions: changed.into_iter().collect(),
                    });
                }
            })
            .map_err(|e| watch_failed(&sessions, e))?;
        debouncer
            .watcher()
            .watch(&sessions, RecursiveMode::Recursive)
            .map_err(|e| watch_failed(&sessions, e))?;
        *current = Some((sessions, debouncer));
        Ok(())
    }
}

/// The platform's watcher without access events. inotify reports every open and close of
/// a watched file, and the window re-reads a session when it hears it changed: with
/// those events each read was a change again, so after any change the list re-read the
/// workspace every debounce period for as long as the window stayed open. A write is
/// still a change (its `Modify`), and so are creating, renaming and removing.
struct ChangesOnly(RecommendedWatcher);

struct WithoutAccess<H>(H);

impl<H: EventHandler> EventHandler for WithoutAccess<H> {
    fn handle_event(&mut self, event: notify::Result<Event>) {
        if matches!(&event, Ok(e) if matches!(e.kind, EventKind::Access(_))) {
            return;
        }
        self.0.handle_event(event);
    }
}

impl Watcher for ChangesOnly {
    fn new<F: EventHandler>(handler: F, config: notify::Config) -> notify::Result<Self> {
        RecommendedWatcher::new(WithoutAccess(handler), config).map(ChangesOnly)
    }

    fn watch(&mut self, path: &Path, mode: RecursiveMode) -> notify::Result<()> {
        self.0.watch(path, mode)
    }

    fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
        self.0.unwatch(path)
    }

    fn configure(&mut self, option: notify::Config) -> notify::Result<bool> {
        self.0.configure(option)
    }

    fn kind() -> WatcherKind {
        RecommendedWatcher::kind()
    }
}

fn watch_failed(sessions: &Path, source: notify_debouncer_mini::notify::Error) -> WatchError {
    WatchError {
        sessions: sessions.to_path_buf(),
        source,
    }
}

/// The session folder names under `root` that `paths` touch, ignoring screenshot and
/// log churn.
pub fn changed_sessions<'a>(
    root: &Path,
    paths: impl Iterator<Item = &'a Path>,
) -> BTreeSet<String> {
    let mut changed = BTreeSet::new();
    for path in paths {
        let Ok(rest) = path.strip_prefix(root) else {
            continue;
        };
        let parts: Vec<&str> = rest
            .components()
            .filter_map(|c| match c {
                Component::Normal(p) => p.to_str(),
                _ => None,
            })
            .collect();
        let Some(session) = parts.first() else {
            continue;
        };
        if parts[1..].iter().any(|p| IGNORED_PARTS.contains(p)) {
            continue;
        }
        changed.insert((*session).to_owned());
    }
    changed
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::*;

    #[test]
    fn only_session_names_and_no_screenshot_churn() {
        let root = Path::new("/w/sessions");
        let paths = [
            "/w/sessions/a/steps.jsonl",
            "/w/sessions/b/screenshots/attempt-001.png",
            "/w/sessions/b/logcat.txt",
            "/w/sessions/c",
            "/elsewhere/d/meta.json",
        ];
        let changed = changed_sessions(root, paths.iter().map(Path::new));
        assert_eq!(changed.into_iter().collect::<Vec<_>>(), ["a", "c"]);
    }

    /// A workspace with its sessions folder, watched.
    fn watched_workspace() -> (
        tempfile::TempDir,
        WorkspaceWatch,
        std::sync::mpsc::Receiver<WorkspaceChange>,
    ) {
        let ws = tempfile::tempdir().unwrap();
        std::fs::create_dir(ws.path().join("sessions")).unwrap();
        let (watch, rx) = watched(ws.path());
        (ws, watch, rx)
    }

    /// Writes a session's three files into `dir`, which exists.
    fn write_session_files(dir: &Path) {
        for file in ["meta.json", "steps.jsonl", "crashes.jsonl"] {
            std::fs::write(dir.join(file), "{}").unwrap();
        }
    }

    fn watched(ws: &Path) -> (WorkspaceWatch, std::sync::mpsc::Receiver<WorkspaceChange>) {
        let watch = WorkspaceWatch::default();
        let (tx, rx) = channel();
        watch
            .watch(ws, move |change| {
                let _ = tx.send(change);
            })
            .unwrap();
        (watch, rx)
    }

    /// Every message until none comes for three debounce periods.
    fn drain(rx: &std::sync::mpsc::Receiver<WorkspaceChange>) -> Vec<WorkspaceChange> {
        let first = rx.recv_timeout(Duration::from_secs(10)).expect("a change");
        let mut changes = vec![first];
        while let Ok(change) = rx.recv_timeout(DEBOUNCE * 3) {
            changes.push(change);
        }
        changes
    }

    #[test]
    fn a_session_folder_moved_in_is_one_message_and_a_new_workspace_stops_the_old() {
        // A recorder that writes a session elsewhere and moves it in (one rename, so one
        // filesystem event whatever the machine's load) must be one message.
        let (ws, watch, rx) = watched_workspace();
        let staged = ws.path().join("staging");
        std::fs::create_dir(&staged).unwrap();
        write_session_files(&staged);
        let dir = ws.path().join("sessions/2026-06-01_100000_new");
        std::fs::rename(&staged, &dir).unwrap();
        let changes = drain(&rx);
        assert_eq!(
            changes,
            [WorkspaceChange {
                sessions: vec!["2026-06-01_100000_new".into()]
            }]
        );
        // Watching another workspace stops this one.
        let other = tempfile::tempdir().unwrap();
        watch.watch(other.path(), |_| {}).unwrap();
        std::fs::write(dir.join("report.md"), "x").unwrap();
        assert!(rx.recv_timeout(DEBOUNCE * 3).is_err());
    }

    #[test]
    fn reading_a_session_is_not_a_change() {
        // The window reads a session when told it changed: a read reported back as a
        // change kept the list re-reading itself every debounce period.
        let (ws, _watch, rx) = watched_workspace();
        let dir = ws.path().join("sessions/2026-06-01_100000_read");
        std::fs::create_dir(&dir).unwrap();
        write_session_files(&dir);
        drain(&rx);
        for file in ["meta.json", "steps.jsonl", "crashes.jsonl"] {
            std::fs::read(dir.join(file)).unwrap();
        }
        std::fs::read_dir(&dir).unwrap().for_each(drop);
        assert!(
            rx.recv_timeout(DEBOUNCE * 3).is_err(),
            "a read was reported"
        );
    }

    #[test]
    fn a_burst_of_writes_is_folded_into_fewer_messages_than_writes() {
        let (ws, _watch, rx) = watched_workspace();
        let dir = ws.path().join("sessions/2026-06-01_100000_new");
        std::fs::create_dir(&dir).unwrap();
        write_session_files(&dir);
        // Four operations raise at least seven inotify events (a write is a create, a
        // modify and a close). How many debounce periods they straddle depends on the
        // machine's load, so the bound is the operations, not one message: a message per
        // event would exceed it on any machine.
        let changes = drain(&rx);
        for change in &changes {
            assert_eq!(change.sessions, ["2026-06-01_100000_new"]);
        }
        assert!(
            changes.len() <= 4,
            "folded per quiet period, got {changes:?}"
        );
    }
}
