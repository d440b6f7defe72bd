//! Temporary files of atomic writes whose writer died before its rename. Named
//! `.<target>.<pid>.<random>.tmp`; one is removed when no process has that id any more,
//! or (for names from before the id was in them, and wherever a process cannot be
//! asked) when it is older than any write takes. A temporary of a live writer, this
//! process's own included, is never touched: that write is still going on.

use std::path::Path;
use std::time::Duration;

pub(crate) const SUFFIX: &str = ".tmp";
/// No atomic write takes this long; a temporary this old is a leftover whoever wrote it.
const ABANDONED_AFTER: Duration = Duration::from_secs(3600);

/// The start of the temporary file's name for a write of `target` by process `pid`.
pub(crate) fn prefix(target: &str, pid: u32) -> String {
    format!(".{target}.{pid}.")
}

/// Removes the leftovers of earlier writes of `target` in `dir`. Best effort: a
/// leftover that cannot be read or removed stays, and the write goes on.
pub(crate) fn remove(dir: &Path, target: &str) {
    let start = format!(".{target}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(middle) = name
            .to_str()
            .and_then(|n| n.strip_prefix(&start))
            .and_then(|n| n.strip_suffix(SUFFIX))
        else {
            continue;
        };
        if is_abandoned(middle, &entry) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `middle` is what lies between `.<target>.` and `.tmp`: `<pid>.<random>` for a
/// temporary this code wrote.
fn is_abandoned(middle: &str, entry: &std::fs::DirEntry) -> bool {
    let writer = middle
        .split_once('.')
        .and_then(|(pid, _)| pid.parse::<u32>().ok());
    if let Some(pid) = writer {
        if pid == std::process::id() {
            return false;
        }
        if let Some(alive) = process_exists(pid) {
            return !alive;
        }
    }
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|modified| modified.elapsed().ok())
        .is_some_and(|age| age > ABANDONED_AFTER)
}

/// Whether a process with this id exists; `None` when that cannot be known.
#[cfg(unix)]
fn process_exists(pid: u32) -> Option<bool> {
    let pid = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    match rustix::process::test_kill_process(pid) {
        Ok(()) => Some(true),
        // It exists and belongs to someone else.
        Err(rustix::io::Errno::PERM) => Some(true),
        Err(rustix::io::Errno::SRCH) => Some(false),
        Err(_) => None,
    }
}

#[cfg(not(unix))]
fn process_exists(_pid: u32) -> Option<bool> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{write_atomic, FileMode};

    /// The id of a process that has exited (and was reaped).
    #[cfg(unix)]
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[cfg(unix)]
    #[test]
    fn a_dead_writers_temporary_is_removed_by_the_next_write_and_a_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = "crashes.minimized.json";
        let dead = dir
            .path()
            .join(format!("{}abc123{SUFFIX}", prefix(target, dead_pid())));
        let live = dir.path().join(format!(
            "{}def456{SUFFIX}",
            prefix(target, std::process::id())
        ));
        // Another file's leftover is that file's writes' business.
        let other = dir.path().join(format!(
            "{}ghi789{SUFFIX}",
            prefix("result.json", dead_pid())
        ));
        for path in [&dead, &live, &other] {
            std::fs::write(path, "half").unwrap();
        }
        write_atomic(&dir.path().join(target), b"{}", FileMode::Shared).unwrap();
        assert!(!dead.exists(), "the dead writer's temporary is gone");
        assert!(live.exists(), "a write still going on keeps its temporary");
        assert!(other.exists());
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names.contains(&target.to_string()));
    }

    #[test]
    fn a_temporary_named_without_its_writer_goes_only_once_abandoned() {
        let dir = tempfile::tempdir().unwrap();
        let old_style = dir.path().join(".meta.json.Ab12Cd.tmp");
        std::fs::write(&old_style, "half").unwrap();
        remove(dir.path(), "meta.json");
        assert!(old_style.exists(), "fresh: maybe a write going on");
        let file = std::fs::File::options()
            .write(true)
            .open(&old_style)
            .unwrap();
        let long_ago = std::time::SystemTime::now() - ABANDONED_AFTER * 2;
        file.set_modified(long_ago).unwrap();
        drop(file);
        remove(dir.path(), "meta.json");
        assert!(!old_style.exists());
    }
}
