//! Where the lease files live: a folder only this user can write, so no other user of the
//! machine can plant a link there for a run to write through, or take a lease file first
//! and lock every run out. `$XDG_RUNTIME_DIR/whittle/devices` when that runtime folder is
//! this user's own and closed to others (cleared at logout, never on a network share);
//! else `<the user's cache folder>/whittle/devices` (CI, cron and ssh sessions often have
//! no runtime folder; a shared temporary folder is never used). `WHITTLE_LEASE_DIR`
//! moves it (tests), under the same checks.
//!
//! A missing folder is made `0700`. The folder is opened without following a link, and
//! what was opened is checked — owned by this user, writable by nobody else — so the
//! check and the use are of the same folder: every lease file is then made relative to
//! that handle (`lease_file.rs`). A folder that fails is refused, typed, never used.

use std::path::{Path, PathBuf};

/// Overrides where the lease files live (tests that must not meet a developer's runs).
pub const LEASE_DIR_ENV: &str = "WHITTLE_LEASE_DIR";

/// Why a lease folder is not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LeaseFolderProblem {
    #[error("it belongs to user {owner}, not to this user ({user})")]
    NotOwned { owner: u32, user: u32 },
    #[error("others may write in it (mode {mode:o})")]
    OpenToOthers { mode: u32 },
    #[error("it is a symbolic link")]
    Link,
    #[error("it is not a folder")]
    NotAFolder,
}

/// The lease folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LeaseFolderError {
    #[error(
        "no private folder for device leases: this user has no cache folder (set HOME, or \
         {LEASE_DIR_ENV})"
    )]
    NoFolder,
    #[error("the device lease folder {} is refused: {problem}", .path.display())]
    Unsafe {
        path: PathBuf,
        problem: LeaseFolderProblem,
    },
    #[error("the device lease folder {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The lease folder, open and checked (see the module documentation).
#[derive(Debug)]
pub struct LeaseFolder {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl LeaseFolder {
    /// This user's lease folder, made if missing.
    pub fn open() -> Result<LeaseFolder, LeaseFolderError> {
        LeaseFolder::open_at(&lease_dir()?)
    }

    /// The lease folder `path`, made if missing, under the checks of this module.
    pub fn open_at(path: &Path) -> Result<LeaseFolder, LeaseFolderError> {
        imp::open_at(path, imp::user())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    #[cfg(unix)]
    pub(super) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        use std::os::fd::AsFd;
        self.fd.as_fd()
    }
}

/// Where this user's lease folder is (see the module documentation).
pub fn lease_dir() -> Result<PathBuf, LeaseFolderError> {
    if let Some(dir) = std::env::var_os(LEASE_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    choose(dirs::runtime_dir(), dirs::cache_dir(), imp::user())
}

/// The runtime folder when it is the user's own and closed to others, else the cache.
fn choose(
    runtime: Option<PathBuf>,
    cache: Option<PathBuf>,
    user: u32,
) -> Result<PathBuf, LeaseFolderError> {
    let private_runtime = runtime.filter(|dir| imp::is_private(dir, user));
    private_runtime
        .or(cache)
        .map(|dir| dir.join("whittle").join("devices"))
        .ok_or(LeaseFolderError::NoFolder)
}

#[cfg(unix)]
mod imp {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    use std::path::Path;

    use rustix::fs::{FileType, Mode, OFlags};
    use rustix::io::Errno;

    use super::{LeaseFolder, LeaseFolderError, LeaseFolderProblem};

    /// Write bits for the group and for others.
    const OTHERS_WRITE: u32 = 0o022;

    /// The effective user: the one whose files a run makes.
    pub(super) fn user() -> u32 {
        rustix::process::geteuid().as_raw()
    }

    pub(super) fn is_private(dir: &Path, user: u32) -> bool {
        std::fs::metadata(dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == user && m.mode() & OTHERS_WRITE == 0)
    }

    pub(super) fn open_at(path: &Path, user: u32) -> Result<LeaseFolder, LeaseFolderError> {
        let io = |source| LeaseFolderError::Io {
            path: path.to_path_buf(),
            source,
        };
        let refuse = |problem| LeaseFolderError::Unsafe {
            path: path.to_path_buf(),
            problem,
        };
        // Made private; what exists is left as it is and checked below.
        match std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path)
        {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(e)),
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::LOOP | Errno::NOTDIR | Errno::MLINK) => {
                let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
                return Err(refuse(if link {
                    LeaseFolderProblem::Link
                } else {
                    LeaseFolderProblem::NotAFolder
                }));
            }
            Err(e) => return Err(io(e.into())),
        };
        let stat = rustix::fs::fstat(&fd).map_err(|e| io(e.into()))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
            return Err(refuse(LeaseFolderProblem::NotAFolder));
        }
        if stat.st_uid != user {
            return Err(refuse(LeaseFolderProblem::NotOwned {
                owner: stat.st_uid,
                user,
            }));
        }
        // `st_mode` is a u32 on Linux, a u16 on macOS.
        #[allow(clippy::useless_conversion)]
        let mode = u32::from(stat.st_mode) & 0o7777;
        if mode & OTHERS_WRITE != 0 {
            return Err(refuse(LeaseFolderProblem::OpenToOthers { mode }));
        }
        Ok(LeaseFolder {
            path: path.to_path_buf(),
            fd,
        })
    }
}

/// Off Unix: the folder as its path says, as before (no owner or mode to check there).
#[cfg(not(unix))]
mod imp {
    use std::path::Path;

    use super::{LeaseFolder, LeaseFolderError};

    pub(super) fn user() -> u32 {
        0
    }

    pub(super) fn is_private(dir: &Path, _user: u32) -> bool {
        dir.is_dir()
    }

    pub(super) fn open_at(path: &Path, _user: u32) -> Result<LeaseFolder, LeaseFolderError> {
        std::fs::create_dir_all(path).map_err(|source| LeaseFolderError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(LeaseFolder {
            path: path.to_path_buf(),
        })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;

    fn problem(path: &Path, user: u32) -> LeaseFolderProblem {
        match imp::open_at(path, user) {
            Err(LeaseFolderError::Unsafe { problem, .. }) => problem,
            other => panic!("{}: expected a refusal, got {other:?}", path.display()),
        }
    }

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_missing_folder_is_made_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("cache/whittle/devices");
        let folder = LeaseFolder::open_at(&dir).unwrap();
        assert_eq!(folder.path(), dir);
        for made in [&dir, &tmp.path().join("cache/whittle")] {
            let meta = std::fs::metadata(made).unwrap();
            assert_eq!(meta.mode() & 0o777, 0o700, "{}", made.display());
            assert_eq!(meta.uid(), imp::user());
        }
    }

    #[test]
    fn a_folder_of_another_user_open_to_others_or_a_link_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let me = imp::user();

        let mine = tmp.path().join("mine");
        std::fs::create_dir(&mine).unwrap();
        chmod(&mine, 0o700);
        assert!(imp::open_at(&mine, me).is_ok());
        // The same folder, for a process of another user.
        assert_eq!(
            problem(&mine, me + 1),
            LeaseFolderProblem::NotOwned {
                owner: me,
                user: me + 1
            }
        );
        // Tests run as root here: a folder really chowned to another user.
        if me == 0 {
            let theirs = tmp.path().join("theirs");
            std::fs::create_dir(&theirs).unwrap();
            chmod(&theirs, 0o700);
            std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
            assert_eq!(
                problem(&theirs, me),
                LeaseFolderProblem::NotOwned {
                    owner: 65534,
                    user: 0
                }
            );
        }

        for mode in [0o770, 0o703, 0o777, 0o1777] {
            let open = tmp.path().join(format!("open-{mode:o}"));
            std::fs::create_dir(&open).unwrap();
            chmod(&open, mode);
            assert_eq!(
                problem(&open, me),
                LeaseFolderProblem::OpenToOthers { mode },
                "{mode:o}"
            );
        }
        // Readable by others is no risk: nobody else can make or replace a file there.
        let readable = tmp.path().join("readable");
        std::fs::create_dir(&readable).unwrap();
        chmod(&readable, 0o755);
        assert!(imp::open_at(&readable, me).is_ok());

        // A link, even to a good folder, is never used.
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&mine, &link).unwrap();
        assert_eq!(problem(&link, me), LeaseFolderProblem::Link);
        let file = tmp.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert_eq!(problem(&file, me), LeaseFolderProblem::NotAFolder);
    }

    #[test]
    fn the_runtime_folder_is_used_only_when_it_is_the_users_own_and_closed() {
        let tmp = tempfile::tempdir().unwrap();
        let me = imp::user();
        let runtime = tmp.path().join("run-user");
        std::fs::create_dir(&runtime).unwrap();
        chmod(&runtime, 0o700);
        let cache = tmp.path().join("cache");
        let chosen = |runtime: Option<PathBuf>, user| choose(runtime, Some(cache.clone()), user);

        assert_eq!(
            chosen(Some(runtime.clone()), me).unwrap(),
            runtime.join("whittle/devices")
        );
        // Another user's runtime folder (a `sudo` that kept XDG_RUNTIME_DIR) or one open
        // to others: the cache.
        assert_eq!(
            chosen(Some(runtime.clone()), me + 1).unwrap(),
            cache.join("whittle/devices")
        );
        chmod(&runtime, 0o777);
        assert_eq!(
            chosen(Some(runtime.clone()), me).unwrap(),
            cache.join("whittle/devices")
        );
        assert_eq!(chosen(None, me).unwrap(), cache.join("whittle/devices"));
        assert!(matches!(
            choose(None, None, me),
            Err(LeaseFolderError::NoFolder)
        ));
    }
}
