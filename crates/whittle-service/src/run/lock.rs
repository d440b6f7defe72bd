//! The run's hold on its evidence session: an advisory lock taken when the session is
//! created (or resumed) and held until the run's end. The operating system drops it
//! when the process dies, however it dies, so a session whose meta still says `running`
//! but whose lock nobody holds was interrupted.
//!
//! The lock is `flock(2)` on the session folder itself (`folder_lock.rs`), opened and
//! kept open by the run: the folder cannot be replaced under a run without taking its
//! evidence with it. `run.lock` stays as a note for a human (who holds it); nothing
//! reads it back, and deleting it changes nothing (off Unix it is what is locked). The
//! lock belongs to the open folder, not the process, so a probe from the same process
//! still sees a live run's lock, and the MCP servers a run starts never inherit it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::model::SessionStatus;
use whittle_core::session::SESSIONS_DIR;
use whittle_core::workspace::SessionSummary;

use crate::folder_lock::lockable;

pub const LOCK_FILE: &str = "run.lock";

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("the run of {} is still going on (another Whittle holds its lock)", dir.display())]
    Held { dir: PathBuf },
    #[error("cannot lock {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Held for as long as the run goes on; dropping it releases the lock.
#[derive(Debug)]
pub struct RunLock {
    _held: File,
}

impl RunLock {
    /// Takes the lock of the evidence session in `dir`, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, LockError> {
        let note = dir.join(LOCK_FILE);
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LockError::Io { path, source }
        };
        refuse_link(&note).map_err(io(&note))?;
        let held = lockable(dir, LOCK_FILE, true).map_err(io(dir))?;
        match fs4::FileExt::try_lock(&held) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.to_path_buf(),
                })
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io(dir)(e)),
        }
        // For a human looking at the folder; nothing reads it back.
        if let Ok(mut file) = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&note)
        {
            let _ = writeln!(file, "pid {}", std::process::id());
        }
        Ok(RunLock { _held: held })
    }
}

/// Whether a live process holds the lock of the evidence session in `dir`: the lock is
/// asked, whatever files the folder holds. A missing folder has no holder. A lock that
/// cannot be probed counts as held: a session is called interrupted (and offered for
/// resuming) only when that is certain.
pub fn lock_is_held(dir: &Path) -> bool {
    if refuse_link(&dir.join(LOCK_FILE)).is_err() {
        return true;
    }
    let file = match lockable(dir, LOCK_FILE, false) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return false,
        Err(_) => return true,
    };
    match fs4::FileExt::try_lock_shared(&file) {
        Ok(()) => {
            let _ = fs4::FileExt::unlock(&file);
            false
        }
        Err(_) => true,
    }
}

/// A lock note that is a link could point anywhere: never written through.
fn refuse_link(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the lock file is a symbolic link",
        )),
        _ => Ok(()),
    }
}

/// A minimize run's state as a tester should see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// A live process holds its lock.
    Running,
    /// Its meta says running, and no live process holds its lock.
    Interrupted,
    /// It ended (`passed` or `failed`).
    Ended,
}

/// The state of the evidence session in `dir` whose meta says `status`.
pub fn run_state(dir: &Path, status: SessionStatus) -> RunState {
    if lock_is_held(dir) {
        RunState::Running
    } else if status == SessionStatus::Running {
        RunState::Interrupted
    } else {
        RunState::Ended
    }
}

/// The run state of a session of `workspace`'s list when it is a minimize run's
/// evidence (its meta names the session it minimized); `None` for any other session.
/// What `whittle sessions` and `whittle mcp`'s `sessions` tool show as its status.
pub fn listed_run_state(workspace: &Path, session: &SessionSummary) -> Option<RunState> {
    session.evidence_of.as_ref()?;
    let dir = workspace.join(SESSIONS_DIR).join(&session.session_id);
    Some(run_state(&dir, session.status?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_seen_and_refused_and_freed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!lock_is_held(dir.path()), "nobody holds it yet");
        assert_eq!(
            run_state(dir.path(), SessionStatus::Running),
            RunState::Interrupted
        );
        let lock = RunLock::acquire(dir.path()).unwrap();
        assert!(lock_is_held(dir.path()), "seen from the same process");
        assert_eq!(
            run_state(dir.path(), SessionStatus::Running),
            RunState::Running
        );
        // A finalized session whose lock is still held (a resume going on) is running.
        assert_eq!(
            run_state(dir.path(), SessionStatus::Failed),
            RunState::Running
        );
        assert!(matches!(
            RunLock::acquire(dir.path()),
            Err(LockError::Held { .. })
        ));
        drop(lock);
        assert!(!lock_is_held(dir.path()));
        assert_eq!(
            run_state(dir.path(), SessionStatus::Passed),
            RunState::Ended
        );
        RunLock::acquire(dir.path()).expect("free again");
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_file_that_is_a_link_is_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(
            RunLock::acquire(dir.path()),
            Err(LockError::Io { .. })
        ));
        assert!(lock_is_held(dir.path()), "unsure counts as held");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }

    /// Issue 30: `run.lock` deleted (and made again) under a live run fools nobody.
    #[test]
    fn deleting_or_replacing_the_lock_note_never_frees_a_live_run() {
        let dir = tempfile::tempdir().unwrap();
        let lock = RunLock::acquire(dir.path()).unwrap();
        let note = dir.path().join(LOCK_FILE);
        assert!(std::fs::read_to_string(&note).unwrap().starts_with("pid "));
        std::fs::remove_file(&note).unwrap();
        assert!(lock_is_held(dir.path()), "deleted: still held");
        assert!(matches!(
            RunLock::acquire(dir.path()),
            Err(LockError::Held { .. })
        ));
        std::fs::write(&note, "pid 1\n").unwrap();
        assert!(lock_is_held(dir.path()), "made again: still held");
        assert!(matches!(
            RunLock::acquire(dir.path()),
            Err(LockError::Held { .. })
        ));
        assert_eq!(
            run_state(dir.path(), SessionStatus::Running),
            RunState::Running
        );
        drop(lock);
        assert!(!lock_is_held(dir.path()), "freed only when the run lets go");
        RunLock::acquire(dir.path()).expect("free again");
    }
}
