//! The run's hold on its evidence session: an advisory lock on `run.lock` in the session
//! folder, taken when the session is created (or resumed) and held until the run's end.
//! The operating system drops it when the process dies, however it dies, so a session
//! whose meta still says `running` but whose lock nobody holds was interrupted.
//!
//! The lock is `flock(2)` (via fs4): it belongs to the open file, not the process, so a
//! probe from the same process still sees a live run's lock, and the file is opened
//! close-on-exec, so the MCP servers a run starts never inherit it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::model::SessionStatus;
use whittle_core::session::SESSIONS_DIR;
use whittle_core::workspace::SessionSummary;

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
    _file: File,
}

impl RunLock {
    /// Takes the lock of the evidence session in `dir`, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        refuse_link(&path).map_err(io)?;
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.to_path_buf(),
                })
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io(e)),
        }
        // For a human looking at the folder; nothing reads it back.
        let _ = file.set_len(0);
        let _ = writeln!(file, "pid {}", std::process::id());
        Ok(RunLock { _file: file })
    }
}

/// Whether a live process holds the lock of the evidence session in `dir`. No lock file
/// means no holder. A lock that cannot be probed counts as held: a session is called
/// interrupted (and offered for resuming) only when that is certain.
pub fn lock_is_held(dir: &Path) -> bool {
    let path = dir.join(LOCK_FILE);
    if refuse_link(&path).is_err() {
        return true;
    }
    let file = match OpenOptions::new().read(true).open(&path) {
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

/// A lock file that is a link could point anywhere: never opened.
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
        assert!(!lock_is_held(dir.path()), "no lock file: no holder");
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
}
