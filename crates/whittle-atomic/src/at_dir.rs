//! [`write_atomic_at`]: the same whole-file write as [`crate::write_atomic`], made
//! inside a folder held open rather than named by a path. Everything happens relative to
//! the handle — the temporary file is created there (never following a link), renamed
//! there, and the folder fsynced — so a folder on the way swapped for a symbolic link
//! after the handle was opened cannot send the bytes anywhere else (an export into a
//! folder an agent asked for, `docs/SECURITY.md` §9).
//!
//! It does not sweep the leftovers of earlier writers as `write_atomic` does: its callers
//! write into a folder they have just made, where no earlier write can have left one.

use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::os::fd::{AsFd, BorrowedFd};

use rustix::fs::{AtFlags, Mode, OFlags};

use crate::fault::{check, Stage};
use crate::{leftovers, FileMode};

/// How many temporary names are tried before giving up: each is random, so a clash
/// means something else is making files of that name on purpose.
const NAME_TRIES: u32 = 16;

/// Replaces `name` in the folder `dir` with `bytes` atomically. `name` must be one
/// component; a symbolic link at `name` is replaced, never written through. The error is
/// the failing step's own.
pub fn write_atomic_at(
    dir: BorrowedFd<'_>,
    name: &str,
    bytes: &[u8],
    mode: FileMode,
) -> io::Result<()> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not one file name",
        ));
    }
    check(Stage::Create)?;
    let (tmp_name, mut tmp) = create_temporary(dir, name)?;
    let written = (|| {
        if let Err(e) = check(Stage::Write) {
            // A disk filling up mid-write: part of the bytes made it, then the error.
            tmp.write_all(&bytes[..bytes.len() / 2])?;
            return Err(e);
        }
        tmp.write_all(bytes)?;
        if mode == FileMode::Shared {
            rustix::fs::fchmod(tmp.as_fd(), Mode::from_raw_mode(0o644))?;
        }
        tmp.sync_all()?;
        check(Stage::Rename)?;
        rustix::fs::renameat(dir, &tmp_name, dir, name)?;
        Ok(())
    })();
    if let Err(e) = written {
        // Not renamed: the temporary is still there under its own name.
        let _ = rustix::fs::unlinkat(dir, &tmp_name, AtFlags::empty());
        return Err(e);
    }
    rustix::fs::fsync(dir)?;
    Ok(())
}

/// A new private file `.<name>.<pid>.<random>.tmp` in `dir` (the name `write_atomic`
/// gives its temporaries, so the same sweep recognises one).
fn create_temporary(dir: BorrowedFd<'_>, name: &str) -> io::Result<(String, File)> {
    let prefix = leftovers::prefix(name, std::process::id());
    let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
    for _ in 0..NAME_TRIES {
        let tmp_name = format!("{prefix}{:016x}{}", random(), leftovers::SUFFIX);
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(dir, &tmp_name, flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => return Ok((tmp_name, File::from(fd))),
            Err(rustix::io::Errno::EXIST) => last = io::Error::from(rustix::io::Errno::EXIST),
            Err(e) => return Err(e.into()),
        }
    }
    Err(last)
}

/// A random number for a temporary's name: std's per-map random hash keys, no
/// dependency for it.
fn random() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_dir(path: &std::path::Path) -> std::os::fd::OwnedFd {
        rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap()
    }

    #[test]
    fn writes_inside_the_held_folder_even_after_its_path_is_moved() {
        let tmp = tempfile::tempdir().unwrap();
        let held = tmp.path().join("held");
        std::fs::create_dir(&held).unwrap();
        let dir = open_dir(&held);
        // The folder's path now names a link elsewhere; the handle still holds the folder.
        let moved = tmp.path().join("moved");
        std::fs::rename(&held, &moved).unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &held).unwrap();

        write_atomic_at(dir.as_fd(), "manifest.json", b"{}", FileMode::Shared).unwrap();
        assert_eq!(std::fs::read(moved.join("manifest.json")).unwrap(), b"{}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert_eq!(
            std::fs::read_dir(&moved).unwrap().count(),
            1,
            "no temporary left"
        );
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(moved.join("manifest.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    #[test]
    fn a_link_at_the_name_is_replaced_not_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target");
        std::fs::write(&target, b"keep").unwrap();
        let folder = tmp.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        std::os::unix::fs::symlink(&target, folder.join("f")).unwrap();
        let dir = open_dir(&folder);
        write_atomic_at(dir.as_fd(), "f", b"new", FileMode::Private).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        let f = folder.join("f");
        assert!(!std::fs::symlink_metadata(&f).unwrap().is_symlink());
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
    }

    #[test]
    fn a_name_with_a_path_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = open_dir(tmp.path());
        for name in ["", ".", "..", "a/b", "../x"] {
            let err = write_atomic_at(dir.as_fd(), name, b"x", FileMode::Private).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{name:?}");
        }
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
