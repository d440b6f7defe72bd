//! Where a device server writes the files its clients name: a screenshot's `saveTo` and
//! a log capture's `<session_dir>/logcat.txt`. Over stdio the one client started the
//! server and may name any path, as before. A lab host (`--listen`) is reached by
//! clients it does not trust with its disk, so it writes only inside the folders it was
//! given (`--files-under`, by default its temp folder; docs/device-lab.md, "Files a lab
//! host writes"):
//! - the folder the file goes into must exist, and resolved (every symbolic link
//!   followed) it must lie inside an allowed folder, itself resolved when the server
//!   started;
//! - on Unix the file is then opened from the allowed folder down, one folder at a time,
//!   without following a symbolic link (`O_NOFOLLOW`): a link swapped in after the check
//!   is refused, not followed out; the file itself must not be a link and must be a
//!   plain file;
//! - anything else is refused before the device is asked, with a typed error naming
//!   the allowed folders (`path_refused`).
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

use super::capture_log::{OpenedLog, LOG_FILE};

/// The `error` of a refused file argument's record.
pub const PATH_REFUSED: &str = "path_refused";

/// Where a server may write the files its clients name.
#[derive(Debug, Clone)]
pub enum AllowedFolders {
    /// Stdio: the one client may name any absolute path.
    Anywhere,
    /// A lab host: only inside these folders (resolved, no symbolic link).
    Under(Arc<[PathBuf]>),
}

/// Why a file argument was not written.
#[derive(Debug, thiserror::Error)]
pub enum FileArgError {
    #[error("{argument} {path:?} must be an absolute path in an existing folder")]
    NotInAFolder {
        argument: &'static str,
        path: String,
    },
    #[error("{argument} {path:?} must be an absolute path to an existing folder")]
    NotAFolder {
        argument: &'static str,
        path: String,
    },
    #[error(
        "{argument} {path:?} is outside the folders this host writes into: {} \
         (its --files-under)",
        shown(allowed)
    )]
    Outside {
        argument: &'static str,
        path: String,
        allowed: Arc<[PathBuf]>,
    },
    #[error(
        "{argument} {path:?}: a symbolic link or something other than a plain file is in \
         the way ({source}); this host does not follow links out of {}",
        shown(allowed)
    )]
    NotPlain {
        argument: &'static str,
        path: String,
        allowed: Arc<[PathBuf]>,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot open {}: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn shown(folders: &[PathBuf]) -> String {
    let names: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
    names.join(", ")
}

/// What a refused path's tool error carries as its `structuredContent`, so a client
/// tells the refusal apart without reading its prose.
#[derive(Debug, Serialize)]
struct PathRefused<'a> {
    error: &'static str,
    argument: &'static str,
    path: &'a str,
    allowed: Vec<String>,
}

impl FileArgError {
    /// The tool error: its message, and the `path_refused` record when the path lies
    /// outside the allowed folders.
    pub fn answer(&self) -> CallToolResult {
        let mut answer = CallToolResult::error(vec![ContentBlock::text(self.to_string())]);
        let (argument, path, allowed) = match self {
            FileArgError::Outside {
                argument,
                path,
                allowed,
            }
            | FileArgError::NotPlain {
                argument,
                path,
                allowed,
                ..
            } => (*argument, path, allowed),
            _ => return answer,
        };
        let record = PathRefused {
            error: PATH_REFUSED,
            argument,
            path,
            allowed: allowed.iter().map(|f| f.display().to_string()).collect(),
        };
        answer.structured_content = serde_json::to_value(record).ok();
        answer
    }
}

/// A file to write once the device has answered: checked, not yet opened (nothing is
/// created when the device fails).
#[derive(Debug)]
pub struct FileTarget {
    argument: &'static str,
    /// As the client named it (for messages and the answer).
    path: PathBuf,
    place: Place,
}

#[derive(Debug)]
enum Place {
    /// Stdio: opened by its path.
    ByPath,
    /// The allowed folder's descendant `dir` (opened without following a link) and the
    /// file's name in it.
    InFolder {
        dir: Folder,
        name: OsString,
        allowed: Arc<[PathBuf]>,
    },
}

impl AllowedFolders {
    /// The folders `--listen` allows (`Listen::files_under`).
    pub fn under(folders: Vec<PathBuf>) -> AllowedFolders {
        AllowedFolders::Under(folders.into())
    }

    /// Where a screenshot named `save_to` goes: an absolute path whose folder exists
    /// (and, on a lab host, lies inside an allowed folder).
    pub fn screenshot(&self, save_to: &str) -> Result<FileTarget, FileArgError> {
        const ARGUMENT: &str = "saveTo";
        let path = Path::new(save_to);
        let not_in_a_folder = || FileArgError::NotInAFolder {
            argument: ARGUMENT,
            path: save_to.to_string(),
        };
        let (Some(parent), Some(Component::Normal(name))) =
            (path.parent(), path.components().next_back())
        else {
            return Err(not_in_a_folder());
        };
        if !path.is_absolute() || !parent.is_dir() {
            return Err(not_in_a_folder());
        }
        let place = match self {
            AllowedFolders::Anywhere => Place::ByPath,
            AllowedFolders::Under(allowed) => Place::InFolder {
                dir: open_inside(ARGUMENT, save_to, parent, allowed)?,
                name: name.to_os_string(),
                allowed: allowed.clone(),
            },
        };
        Ok(FileTarget {
            argument: ARGUMENT,
            path: path.to_path_buf(),
            place,
        })
    }

    /// Opens `<session_dir>/logcat.txt` for appending (created if missing): an absolute
    /// path to an existing folder (and, on a lab host, inside an allowed folder).
    pub fn capture_log(&self, session_dir: &str) -> Result<OpenedLog, FileArgError> {
        const ARGUMENT: &str = "session_dir";
        let dir = Path::new(session_dir);
        if !dir.is_absolute() || !dir.is_dir() {
            return Err(FileArgError::NotAFolder {
                argument: ARGUMENT,
                path: session_dir.to_string(),
            });
        }
        let place = match self {
            AllowedFolders::Anywhere => Place::ByPath,
            AllowedFolders::Under(allowed) => Place::InFolder {
                dir: open_inside(ARGUMENT, session_dir, dir, allowed)?,
                name: OsString::from(LOG_FILE),
                allowed: allowed.clone(),
            },
        };
        let target = FileTarget {
            argument: ARGUMENT,
            path: dir.join(LOG_FILE),
            place,
        };
        let file = target.open(Opening::Append)?;
        Ok(OpenedLog {
            path: target.path,
            file,
        })
    }
}

/// How a target is opened: a screenshot replaces the file (the client may have made it
/// empty beforehand), a log is appended to.
#[derive(Clone, Copy)]
enum Opening {
    Replace,
    Append,
}

impl FileTarget {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` as the whole file.
    pub fn write(&self, bytes: &[u8]) -> Result<(), FileArgError> {
        let mut file = self.open(Opening::Replace)?;
        file.write_all(bytes).map_err(|source| FileArgError::Write {
            path: self.path.clone(),
            source,
        })
    }

    fn open(&self, opening: Opening) -> Result<File, FileArgError> {
        let open_error = |source| FileArgError::Open {
            path: self.path.clone(),
            source,
        };
        match &self.place {
            Place::ByPath => {
                let mut options = std::fs::OpenOptions::new();
                options.create(true);
                match opening {
                    Opening::Replace => options.write(true).truncate(true),
                    Opening::Append => options.append(true),
                };
                options.open(&self.path).map_err(open_error)
            }
            Place::InFolder { dir, name, allowed } => {
                let not_plain = |source| FileArgError::NotPlain {
                    argument: self.argument,
                    path: self.path.display().to_string(),
                    allowed: allowed.clone(),
                    source,
                };
                let file = open_no_follow(dir, name, opening).map_err(|e| {
                    if is_link_refusal(&e) {
                        not_plain(e)
                    } else {
                        open_error(e)
                    }
                })?;
                let plain = file.metadata().map_err(open_error)?.is_file();
                if !plain {
                    return Err(not_plain(std::io::Error::other("not a plain file")));
                }
                Ok(file)
            }
        }
    }
}

/// `folder` (an existing folder) opened inside one of `allowed`: resolved and checked,
/// then on Unix opened from the allowed folder down without following a link.
fn open_inside(
    argument: &'static str,
    named: &str,
    folder: &Path,
    allowed: &Arc<[PathBuf]>,
) -> Result<Folder, FileArgError> {
    let outside = || FileArgError::Outside {
        argument,
        path: named.to_string(),
        allowed: allowed.clone(),
    };
    let resolved = folder.canonicalize().map_err(|_| outside())?;
    let (root, below) = allowed
        .iter()
        .find_map(|root| Some((root, resolved.strip_prefix(root).ok()?)))
        .ok_or_else(outside)?;
    open_folder_below(root, below).map_err(|source| {
        if is_link_refusal(&source) {
            FileArgError::NotPlain {
                argument,
                path: named.to_string(),
                allowed: allowed.clone(),
                source,
            }
        } else {
            FileArgError::Open {
                path: resolved.clone(),
                source,
            }
        }
    })
}

/// What opening with `O_NOFOLLOW` answers for a link (Linux: `ELOOP`; a folder
/// opened with `O_DIRECTORY|O_NOFOLLOW` that is a link: `ELOOP` or `ENOTDIR`).
fn is_link_refusal(error: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        let code = error.raw_os_error();
        code == Some(rustix::io::Errno::LOOP.raw_os_error())
            || code == Some(rustix::io::Errno::NOTDIR.raw_os_error())
            || code == Some(rustix::io::Errno::MLINK.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        error
            .get_ref()
            .is_some_and(|inner| inner.is::<LinkInTheWay>())
    }
}

/// Where there is no `O_NOFOLLOW`: the file to open is a symbolic link.
#[cfg(not(unix))]
#[derive(Debug, thiserror::Error)]
#[error("a symbolic link")]
struct LinkInTheWay;

/// A folder inside an allowed one, as the file is opened from: on Unix the open folder
/// itself, elsewhere its resolved path.
#[cfg(unix)]
type Folder = File;
#[cfg(not(unix))]
type Folder = PathBuf;

#[cfg(unix)]
fn open_folder_below(root: &Path, below: &Path) -> std::io::Result<Folder> {
    use rustix::fs::{openat, Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let mut dir = File::from(openat(rustix::fs::CWD, root, flags, Mode::empty())?);
    for part in below.components() {
        let Component::Normal(part) = part else {
            // A resolved path below a resolved root has only plain names.
            return Err(std::io::Error::other("not a plain folder name"));
        };
        let next = openat(&dir, part, flags | OFlags::NOFOLLOW, Mode::empty())?;
        dir = File::from(next);
    }
    Ok(dir)
}

#[cfg(unix)]
fn open_no_follow(dir: &Folder, name: &OsString, opening: Opening) -> std::io::Result<File> {
    use rustix::fs::{openat, Mode, OFlags};
    // NONBLOCK: a FIFO put in the file's place fails at once instead of hanging the
    // call; on a plain file it changes nothing.
    let flags = OFlags::WRONLY
        | OFlags::CREATE
        | OFlags::NOFOLLOW
        | OFlags::NONBLOCK
        | OFlags::CLOEXEC
        | match opening {
            Opening::Replace => OFlags::TRUNC,
            Opening::Append => OFlags::APPEND,
        };
    // The mode before the umask, as `File::create` uses.
    let mode = Mode::from_raw_mode(0o666);
    Ok(File::from(openat(dir, name.as_os_str(), flags, mode)?))
}

/// Elsewhere the resolved check stands alone, with the file itself looked at before it
/// is opened by its path (a link swapped in between is not caught there).
#[cfg(not(unix))]
fn open_folder_below(root: &Path, below: &Path) -> std::io::Result<Folder> {
    Ok(root.join(below))
}

#[cfg(not(unix))]
fn open_no_follow(dir: &Folder, name: &OsString, opening: Opening) -> std::io::Result<File> {
    let path = dir.join(name);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(std::io::Error::other(LinkInTheWay));
    }
    let mut options = std::fs::OpenOptions::new();
    options.create(true);
    match opening {
        Opening::Replace => options.write(true).truncate(true),
        Opening::Append => options.append(true),
    };
    options.open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn under(dir: &Path) -> AllowedFolders {
        AllowedFolders::under(vec![dir.canonicalize().unwrap()])
    }

    #[test]
    fn files_inside_are_written_and_everything_else_is_refused_naming_the_folders() {
        let allowed = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let folders = under(allowed.path());
        std::fs::create_dir(allowed.path().join("sub")).unwrap();

        let inside = allowed.path().join("sub/shot.png");
        let target = folders.screenshot(inside.to_str().unwrap()).unwrap();
        target.write(b"png").unwrap();
        assert_eq!(std::fs::read(&inside).unwrap(), b"png");
        // Replaced, not appended to.
        target.write(b"p").unwrap();
        assert_eq!(std::fs::read(&inside).unwrap(), b"p");

        let outside = elsewhere.path().join("shot.png");
        let refused = folders.screenshot(outside.to_str().unwrap()).unwrap_err();
        assert!(matches!(refused, FileArgError::Outside { .. }), "{refused}");
        let text = refused.to_string();
        let root = allowed.path().canonicalize().unwrap();
        assert!(text.contains(&root.display().to_string()), "{text}");
        let answer = refused.answer();
        assert_eq!(answer.is_error, Some(true));
        let record = answer.structured_content.unwrap();
        assert_eq!(record["error"], PATH_REFUSED);
        assert_eq!(record["allowed"][0], root.display().to_string());
        assert!(!outside.exists());

        // `..` out of the folder, and a relative path.
        let dotdot = format!("{}/sub/../../x.png", allowed.path().display());
        assert!(folders.screenshot(&dotdot).is_err());
        assert!(matches!(
            folders.screenshot("x.png"),
            Err(FileArgError::NotInAFolder { .. })
        ));
        let log = folders
            .capture_log(elsewhere.path().to_str().unwrap())
            .unwrap_err();
        assert!(matches!(log, FileArgError::Outside { .. }), "{log}");
        assert!(!elsewhere.path().join(LOG_FILE).exists());
        let opened = folders
            .capture_log(allowed.path().join("sub").to_str().unwrap())
            .unwrap();
        assert!(opened.path.ends_with("sub/logcat.txt"));
    }

    #[test]
    fn symbolic_links_out_of_the_folder_are_never_followed() {
        let allowed = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let folders = under(allowed.path());
        let victim = elsewhere.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        // The file itself a link out.
        let link = allowed.path().join("shot.png");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let target = folders.screenshot(link.to_str().unwrap()).unwrap();
        let refused = target.write(b"png").unwrap_err();
        assert!(
            matches!(refused, FileArgError::NotPlain { .. }),
            "{refused}"
        );
        std::os::unix::fs::symlink(&victim, allowed.path().join(LOG_FILE)).unwrap();
        let refused = folders
            .capture_log(allowed.path().to_str().unwrap())
            .unwrap_err();
        assert!(
            matches!(refused, FileArgError::NotPlain { .. }),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");

        // A folder that is a link out: resolved, it lies outside.
        let out = allowed.path().join("out");
        std::os::unix::fs::symlink(elsewhere.path(), &out).unwrap();
        let refused = folders
            .screenshot(out.join("x.png").to_str().unwrap())
            .unwrap_err();
        assert!(matches!(refused, FileArgError::Outside { .. }), "{refused}");

        // A folder swapped for a link after the check: opened without following it.
        std::fs::create_dir(allowed.path().join("swap")).unwrap();
        let checked = folders
            .screenshot(allowed.path().join("swap/x.png").to_str().unwrap())
            .unwrap();
        drop(checked);
        std::fs::remove_dir(allowed.path().join("swap")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), allowed.path().join("swap")).unwrap();
        let root = allowed.path().canonicalize().unwrap();
        let swapped = open_folder_below(&root, Path::new("swap")).unwrap_err();
        assert!(is_link_refusal(&swapped), "{swapped}");
        assert!(!elsewhere.path().join("x.png").exists());
    }

    #[test]
    fn over_stdio_any_absolute_path_is_written_as_before() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        let target = AllowedFolders::Anywhere
            .screenshot(path.to_str().unwrap())
            .unwrap();
        target.write(b"png").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"png");
        assert!(AllowedFolders::Anywhere.screenshot("rel.png").is_err());
        let missing = dir.path().join("no/such/shot.png");
        assert!(AllowedFolders::Anywhere
            .screenshot(missing.to_str().unwrap())
            .is_err());
    }
}
