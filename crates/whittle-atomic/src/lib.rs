//! The one way Whittle replaces a whole file (the sidecar, `result.json`, an export's
//! `manifest.json`, the report server's session files) and grows a journal: the bytes go to a temporary file in the same folder, are fsynced,
//! and replace the target in one rename; the folder is then fsynced so the rename is
//! durable. A failure at any step drops the temporary file (which deletes it), so a
//! full or read-only disk leaves the old file intact and no `.tmp` behind.
//!
//! A process killed between creating its temporary file and the rename cannot delete
//! it. The temporary's name carries the writer's process id, and the next write of the
//! same file removes every temporary of it whose writer is gone (`leftovers.rs`), so a
//! killed approval leaves nothing in the tester's session folder once the next one runs.
//!
//! Its own crate because the application layer and the servers both write files and
//! neither may depend on the other (`docs/architecture.md`).

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

mod leftovers;

#[cfg(unix)]
mod at_dir;
#[cfg(unix)]
pub use at_dir::write_atomic_at;

#[cfg(feature = "fault-injection")]
pub mod fault;
#[cfg(not(feature = "fault-injection"))]
mod fault {
    #[derive(Clone, Copy)]
    pub(super) enum Stage {
        Create,
        Write,
        Rename,
        Append,
    }
    #[inline(always)]
    pub(super) fn check(_stage: Stage) -> std::io::Result<()> {
        Ok(())
    }
}

use fault::{check, Stage};

/// Who may read the file once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// 0600 (the temporary file's own mode): files only Whittle reads back.
    Private,
    /// 0644: an ordinary user file next to the user's own data (the sidecar).
    Shared,
}

/// Replaces `path` with `bytes` atomically. The error is the failing step's own; callers
/// wrap it with the path they were writing.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: FileMode) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    let name = name.to_string_lossy();
    leftovers::remove(dir, &name);
    check(Stage::Create)?;
    // Hidden and named after the target and its writer, so a leftover is recognisable,
    // and removable once its writer is gone.
    let mut tmp = tempfile::Builder::new()
        .prefix(&leftovers::prefix(&name, std::process::id()))
        .suffix(leftovers::SUFFIX)
        .tempfile_in(dir)?;
    if let Err(e) = check(Stage::Write) {
        // A disk filling up mid-write: part of the bytes made it, then the error.
        tmp.write_all(&bytes[..bytes.len() / 2])?;
        return Err(e);
    }
    tmp.write_all(bytes)?;
    if mode == FileMode::Shared {
        set_shared(tmp.as_file())?;
    }
    tmp.as_file().sync_all()?;
    check(Stage::Rename)?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// Appends `bytes` (one whole record) to `file` and makes them durable before returning:
/// the one way a journal grows. A failure may leave part of the record at the end of the
/// file (a disk that filled up mid-write); readers treat an unfinished last line as never
/// written, and the writer cuts it off before appending again.
pub fn append_durable(mut file: &File, bytes: &[u8]) -> io::Result<()> {
    if let Err(e) = check(Stage::Append) {
        file.write_all(&bytes[..bytes.len() / 2])?;
        return Err(e);
    }
    file.write_all(bytes)?;
    file.sync_data()
}

/// Makes a folder's entries (a new file, a rename) durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    // Only Unix can open and fsync a directory; elsewhere the rename is as durable as the
    // platform makes it.
    if cfg!(unix) {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

#[cfg(unix)]
fn set_shared(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_shared(_file: &File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("meta.json");
        write_atomic(&path, b"first version, rather long", FileMode::Private).unwrap();
        write_atomic(&path, b"second", FileMode::Shared).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_mode_is_private_or_shared_as_asked() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |name: &str, m: FileMode| {
            let path = dir.path().join(name);
            write_atomic(&path, b"x", m).unwrap();
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777
        };
        assert_eq!(mode("private", FileMode::Private), 0o600);
        assert_eq!(mode("shared", FileMode::Shared), 0o644);
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone/file.json");
        let err = write_atomic(&path, b"x", FileMode::Private).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }
}
