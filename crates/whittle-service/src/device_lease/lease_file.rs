//! One lease file in the lease folder: opened inside the folder's handle without following
//! a link (`O_NOFOLLOW`, mode 0600), held by an OS lock (`flock`), and removed when the
//! lease is released, so the folder does not fill with the files of every device ever
//! driven.
//!
//! Removing a lock file has a classic race: A holds the lock; B opens the file; A
//! unlinks it and unlocks; B now locks a file no name leads to, while C makes a new one
//! and locks that — B and C both "hold" the device. So a lock counts only once the name
//! still leads to the locked file (its device and inode, `fstat` against `lstat` of the
//! name); if not, the file is dropped and the take starts again. A holder removes the
//! name while it still holds the lock, so a name always leads either to nothing or to a
//! file that is free or locked by its one true holder. A file left by a holder that died
//! (the OS dropped its lock with it) is simply locked and reused.

use std::fs::File;
use std::io;

use super::private_folder::LeaseFolder;

/// How many times a take starts again when the name was moved to another file under it:
/// each time means another run took and released the device meanwhile.
const MAX_TRIES: u32 = 64;

/// What a take found.
#[derive(Debug)]
pub(super) enum Taken {
    /// This process holds the lease now.
    Held(HeldFile),
    /// Another holds it: its file, to read who it is (none when the name kept moving).
    Busy(Option<File>),
}

/// Why a lease file could not be taken.
#[derive(Debug)]
pub(super) enum TakeError {
    /// A symbolic link stands at the lease file's name: never written through.
    Link,
    Io(io::Error),
}

impl From<io::Error> for TakeError {
    fn from(e: io::Error) -> TakeError {
        TakeError::Io(e)
    }
}

/// A lease file this process holds; dropping it removes the file, then frees the lock.
#[derive(Debug)]
pub(super) struct HeldFile {
    file: File,
    #[cfg(unix)]
    folder: std::os::fd::OwnedFd,
    #[cfg(unix)]
    name: String,
}

impl HeldFile {
    pub(super) fn file(&mut self) -> &mut File {
        &mut self.file
    }
}

/// Takes the lease file `name` of `folder` (see the module documentation).
pub(super) fn take(folder: &LeaseFolder, name: &str) -> Result<Taken, TakeError> {
    imp::take(folder, name)
}

#[cfg(unix)]
mod imp {
    use std::fs::File;
    use std::os::fd::{AsFd, BorrowedFd};

    use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
    use rustix::io::Errno;

    use super::{HeldFile, TakeError, Taken, MAX_TRIES};
    use crate::device_lease::private_folder::LeaseFolder;

    pub(super) fn take(folder: &LeaseFolder, name: &str) -> Result<Taken, TakeError> {
        let dir = folder.fd();
        for _ in 0..MAX_TRIES {
            let file = open(dir, name)?;
            match fs4::FileExt::try_lock(&file) {
                Ok(()) => {}
                Err(fs4::TryLockError::WouldBlock) => return Ok(Taken::Busy(Some(file))),
                Err(fs4::TryLockError::Error(e)) => return Err(e.into()),
            }
            if names(dir, name, &file)? {
                return Ok(Taken::Held(HeldFile {
                    file,
                    folder: dir.try_clone_to_owned()?,
                    name: name.to_owned(),
                }));
            }
            // Locked a file its holder had removed: the name leads elsewhere now.
        }
        Ok(Taken::Busy(None))
    }

    fn open(dir: BorrowedFd<'_>, name: &str) -> Result<File, TakeError> {
        let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(dir, name, flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => Ok(File::from(fd)),
            Err(e @ (Errno::LOOP | Errno::MLINK)) => {
                match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) if is_link(&stat) => Err(TakeError::Link),
                    _ => Err(TakeError::Io(e.into())),
                }
            }
            Err(e) => Err(TakeError::Io(e.into())),
        }
    }

    fn is_link(stat: &Stat) -> bool {
        FileType::from_raw_mode(stat.st_mode) == FileType::Symlink
    }

    /// Whether `name` in `dir` still leads to `file` itself (not through a link).
    fn names(dir: BorrowedFd<'_>, name: &str, file: &File) -> std::io::Result<bool> {
        let held = rustix::fs::fstat(file)?;
        match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(named) => Ok(named.st_dev == held.st_dev && named.st_ino == held.st_ino),
            Err(Errno::NOENT) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    impl Drop for HeldFile {
        fn drop(&mut self) {
            // Removed while still locked, and only while the name leads to this very file
            // (nothing but a holder removes it, so it does; checked all the same, so a
            // file someone else put there is never taken away from its holder).
            let folder = self.folder.as_fd();
            if names(folder, &self.name, &self.file).unwrap_or(false) {
                let _ = rustix::fs::unlinkat(folder, &self.name, AtFlags::empty());
            }
            // The lock goes with the file, closed right after this.
        }
    }
}

/// Off Unix: the file as its path says, locked and kept (as before: no fstat there to
/// tell the name still leads to the locked file, so it is never removed).
#[cfg(not(unix))]
mod imp {
    use std::fs::OpenOptions;

    use super::{HeldFile, TakeError, Taken};
    use crate::device_lease::private_folder::LeaseFolder;

    pub(super) fn take(folder: &LeaseFolder, name: &str) -> Result<Taken, TakeError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(folder.path().join(name))?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(Taken::Held(HeldFile { file })),
            Err(fs4::TryLockError::WouldBlock) => Ok(Taken::Busy(Some(file))),
            Err(fs4::TryLockError::Error(e)) => Err(e.into()),
        }
    }
}
