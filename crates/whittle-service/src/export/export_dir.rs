//! A folder held open for an export to write into. The folder is opened once; every
//! file and folder of the bundle is then made relative to that handle (openat, mkdirat,
//! renameat), with no symbolic link followed below it. Checking a folder and then writing
//! by its path lets a folder on the way be swapped for a link in between, and the bundle
//! lands wherever the link points; a handle keeps naming the folder that was checked
//! (docs/SECURITY.md §9, "Exports an agent asks for").
//!
//! Two ways in: [`ExportDir::create`] opens the tester's own folder as its path says,
//! links included (the window's folder picker, `whittle export --out`: the tester chose
//! it); [`ExportDir::create_beneath`] opens a folder under an allowed one walking each
//! step without following a link, so the handle is inside the allowed folder whatever
//! happens to the path afterwards. Off Unix both write by path, as before.

use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a folder under an allowed one could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum BeneathError {
    /// A step of the way is a symbolic link; it is not followed.
    #[error("{} is a symbolic link; it is not followed", .0.display())]
    Link(PathBuf),
    /// The way takes a step that is not a plain name (`.`, `..`, a root).
    #[error("{} is not a plain folder name below {}", .step, .root.display())]
    NotPlain { root: PathBuf, step: String },
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// An open folder an export writes into (see the module documentation).
#[derive(Debug)]
pub struct ExportDir {
    /// Where it was when opened: for messages and the paths handed back, never to write by.
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl ExportDir {
    /// The tester's own folder, created if missing and opened as its path says.
    pub fn create(path: &Path) -> io::Result<ExportDir> {
        std::fs::create_dir_all(path)?;
        imp::open(path)
    }

    /// `root/rel`, each step of `rel` made if missing and opened without following a
    /// link: the handle is inside `root` (itself opened as its path says: the allowed
    /// folder and the folders above it are the user's, links and all).
    pub fn create_beneath(root: &Path, rel: &Path) -> Result<ExportDir, BeneathError> {
        let mut dir = ExportDir::create(root).map_err(|source| BeneathError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        for step in rel.components() {
            let Component::Normal(name) = step else {
                return Err(BeneathError::NotPlain {
                    root: root.to_path_buf(),
                    step: step.as_os_str().to_string_lossy().into_owned(),
                });
            };
            let name = name.to_str().ok_or_else(|| BeneathError::Io {
                path: dir.path.join(name),
                source: io::Error::new(io::ErrorKind::InvalidInput, "not UTF-8"),
            })?;
            let path = dir.path.join(name);
            match dir.make_dir(name) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(source) => return Err(BeneathError::Io { path, source }),
            }
            dir = match dir.open_dir(name) {
                Ok(next) => next,
                Err(OpenChild::Link) => return Err(BeneathError::Link(path)),
                Err(OpenChild::Io(source)) => return Err(BeneathError::Io { path, source }),
            };
        }
        Ok(dir)
    }

    /// Where the folder was when it was opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes the folder `name` in this one; an existing entry (a link included) is
    /// `AlreadyExists`.
    pub(crate) fn make_dir(&self, name: &str) -> io::Result<()> {
        imp::make_dir(self, name)
    }

    /// Opens the folder `name` in this one, never through a link.
    pub(crate) fn open_dir(&self, name: &str) -> Result<ExportDir, OpenChild> {
        imp::open_dir(self, name)
    }

    /// Writes `bytes` to the new file `name` in this one (never over an existing entry, a
    /// link included) and makes them durable.
    pub(crate) fn write_new(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        imp::write_new(self, name, bytes)
    }

    /// Replaces `name` in this folder atomically (`whittle_atomic`: temporary file,
    /// fsync, rename, fsync of the folder), inside this folder.
    pub(crate) fn write_atomic(
        &self,
        name: &str,
        bytes: &[u8],
        mode: crate::atomic::FileMode,
    ) -> io::Result<()> {
        imp::write_atomic(self, name, bytes, mode)
    }

    /// Removes the file `name` of this folder (a link: the link itself).
    pub(crate) fn remove_file(&self, name: &str) -> io::Result<()> {
        imp::remove(self, name, false)
    }

    /// Removes the empty folder `name` of this folder.
    pub(crate) fn remove_dir(&self, name: &str) -> io::Result<()> {
        imp::remove(self, name, true)
    }
}

/// Why a folder inside an [`ExportDir`] could not be opened.
#[derive(Debug)]
pub(crate) enum OpenChild {
    /// It is a symbolic link.
    Link,
    Io(io::Error),
}

impl From<OpenChild> for io::Error {
    fn from(open: OpenChild) -> io::Error {
        match open {
            OpenChild::Link => io::Error::other("a symbolic link stands where a folder was made"),
            OpenChild::Io(e) => e,
        }
    }
}

#[cfg(unix)]
mod imp {
    use std::fs::File;
    use std::io::{self, Write};
    use std::os::fd::AsFd;
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};
    use rustix::io::Errno;

    use super::{ExportDir, OpenChild};

    const DIR_FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::CLOEXEC);

    /// The usual modes before the umask, as `std::fs` creates files and folders.
    const FILE_MODE: u32 = 0o666;
    const DIR_MODE: u32 = 0o777;

    pub(super) fn open(path: &Path) -> io::Result<ExportDir> {
        let fd = rustix::fs::open(path, DIR_FLAGS, Mode::empty())?;
        Ok(ExportDir {
            path: path.to_path_buf(),
            fd,
        })
    }

    pub(super) fn make_dir(dir: &ExportDir, name: &str) -> io::Result<()> {
        Ok(rustix::fs::mkdirat(
            dir.fd.as_fd(),
            name,
            Mode::from_raw_mode(DIR_MODE as _),
        )?)
    }

    pub(super) fn open_dir(dir: &ExportDir, name: &str) -> Result<ExportDir, OpenChild> {
        match rustix::fs::openat(
            dir.fd.as_fd(),
            name,
            DIR_FLAGS | OFlags::NOFOLLOW,
            Mode::empty(),
        ) {
            Ok(fd) => Ok(ExportDir {
                path: dir.path.join(name),
                fd,
            }),
            // A link with O_NOFOLLOW is ELOOP (Linux, macOS) or ENOTDIR with O_DIRECTORY on
            // some systems: ask what stands there.
            Err(e @ (Errno::LOOP | Errno::NOTDIR | Errno::MLINK)) => {
                match rustix::fs::statat(dir.fd.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                        Err(OpenChild::Link)
                    }
                    _ => Err(OpenChild::Io(e.into())),
                }
            }
            Err(e) => Err(OpenChild::Io(e.into())),
        }
    }

    pub(super) fn write_new(dir: &ExportDir, name: &str, bytes: &[u8]) -> io::Result<()> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(
            dir.fd.as_fd(),
            name,
            flags,
            Mode::from_raw_mode(FILE_MODE as _),
        )?;
        let mut file = File::from(fd);
        file.write_all(bytes)?;
        file.sync_all()
    }

    pub(super) fn write_atomic(
        dir: &ExportDir,
        name: &str,
        bytes: &[u8],
        mode: crate::atomic::FileMode,
    ) -> io::Result<()> {
        crate::atomic::write_atomic_at(dir.fd.as_fd(), name, bytes, mode)
    }

    pub(super) fn remove(dir: &ExportDir, name: &str, folder: bool) -> io::Result<()> {
        let flags = if folder {
            AtFlags::REMOVEDIR
        } else {
            AtFlags::empty()
        };
        Ok(rustix::fs::unlinkat(dir.fd.as_fd(), name, flags)?)
    }
}

/// Off Unix there is no openat in std: the writes go by path, as they always did there.
#[cfg(not(unix))]
mod imp {
    use std::io::{self, Write};
    use std::path::Path;

    use super::{ExportDir, OpenChild};

    pub(super) fn open(path: &Path) -> io::Result<ExportDir> {
        Ok(ExportDir {
            path: path.to_path_buf(),
        })
    }

    pub(super) fn make_dir(dir: &ExportDir, name: &str) -> io::Result<()> {
        std::fs::create_dir(dir.path.join(name))
    }

    pub(super) fn open_dir(dir: &ExportDir, name: &str) -> Result<ExportDir, OpenChild> {
        let path = dir.path.join(name);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => Err(OpenChild::Link),
            Ok(_) => Ok(ExportDir { path }),
            Err(e) => Err(OpenChild::Io(e)),
        }
    }

    pub(super) fn write_new(dir: &ExportDir, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.path.join(name))?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    pub(super) fn write_atomic(
        dir: &ExportDir,
        name: &str,
        bytes: &[u8],
        mode: crate::atomic::FileMode,
    ) -> io::Result<()> {
        crate::atomic::write_atomic(&dir.path.join(name), bytes, mode)
    }

    pub(super) fn remove(dir: &ExportDir, name: &str, folder: bool) -> io::Result<()> {
        match folder {
            true => std::fs::remove_dir(dir.path.join(name)),
            false => std::fs::remove_file(dir.path.join(name)),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_on_the_way_below_the_root_is_refused_and_nothing_is_made_through_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("a/link")).unwrap();

        let err = ExportDir::create_beneath(&root, Path::new("a/link/deeper")).unwrap_err();
        assert!(
            matches!(&err, BeneathError::Link(at) if at == &root.join("a/link")),
            "{err:?}"
        );
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);

        let err = ExportDir::create_beneath(&root, Path::new("a/../x")).unwrap_err();
        assert!(matches!(err, BeneathError::NotPlain { .. }), "{err:?}");

        let made = ExportDir::create_beneath(&root, Path::new("a/b/c")).unwrap();
        assert_eq!(made.path(), root.join("a/b/c"));
        assert!(root.join("a/b/c").is_dir());
    }

    #[test]
    fn files_go_into_the_held_folder_and_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        let dir = ExportDir::create_beneath(&root, Path::new("a")).unwrap();
        // The path is swapped for a link out after the folder was opened.
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::rename(root.join("a"), root.join("a.moved")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("a")).unwrap();

        dir.write_new("f", b"1").unwrap();
        dir.make_dir("sub").unwrap();
        let sub = dir.open_dir("sub").unwrap();
        sub.write_new("g", b"2").unwrap();
        dir.write_atomic("m", b"3", crate::atomic::FileMode::Shared)
            .unwrap();
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        assert_eq!(std::fs::read(root.join("a.moved/sub/g")).unwrap(), b"2");
        assert_eq!(std::fs::read(root.join("a.moved/m")).unwrap(), b"3");

        // A link planted where a file or folder is to be made is neither written through
        // nor entered.
        let target = outside.join("victim");
        std::os::unix::fs::symlink(&target, root.join("a.moved/planted")).unwrap();
        let err = dir.write_new("planted", b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        std::os::unix::fs::symlink(&outside, root.join("a.moved/linked")).unwrap();
        assert!(matches!(dir.open_dir("linked"), Err(OpenChild::Link)));
        assert!(!target.exists());

        dir.remove_file("f").unwrap();
        sub.remove_file("g").unwrap();
        dir.remove_dir("sub").unwrap();
        assert!(!root.join("a.moved/sub").exists());
    }
}
