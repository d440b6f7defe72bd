//! Writes one approved result into `crashes.minimized.json` (SPEC §1) without ever
//! touching `crashes.jsonl` and without losing another writer's entry.
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use crate::atomic::{write_atomic, FileMode};
use whittle_core::model::{MinimizedEntry, Sidecar, SIDECAR_FILE, SIDECAR_SCHEMA};

/// Held (exclusively) for the whole read-modify-write. Never deleted: removing a lock
/// file while another process waits on it would let two writers in at once.
const LOCK_FILE: &str = ".crashes.minimized.json.lock";

#[derive(Debug, thiserror::Error)]
pub enum SidecarError {
    #[error("session folder {0} does not exist or is not a folder")]
    NoSessionDir(PathBuf),
    #[error("crash id must not be empty")]
    EmptyCrashId,
    #[error("cannot lock {path}: {source}")]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is corrupt, refusing to overwrite it: {message}")]
    Corrupt { path: PathBuf, message: String },
    #[error("{path} has schema {found}; this Whittle writes schema {expected}")]
    Schema {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Adds or replaces `crash_id`'s entry and returns the sidecar's path. Atomic
/// ([`write_atomic`]): on a failed write the previous sidecar is left as it was.
pub fn write_sidecar_entry(
    session_dir: &Path,
    crash_id: &str,
    entry: MinimizedEntry,
) -> Result<PathBuf, SidecarError> {
    if crash_id.is_empty() {
        return Err(SidecarError::EmptyCrashId);
    }
    if !session_dir.is_dir() {
        return Err(SidecarError::NoSessionDir(session_dir.to_path_buf()));
    }
    let path = session_dir.join(SIDECAR_FILE);
    let lock_path = session_dir.join(LOCK_FILE);
    let lock_err = |source| SidecarError::Lock {
        path: lock_path.clone(),
        source,
    };
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(lock_err)?;
    // Fully qualified: std's inherent `File::lock` needs a newer Rust than our MSRV.
    fs4::FileExt::lock(&lock).map_err(lock_err)?;

    let mut sidecar = read_existing(&path)?;
    sidecar.crashes.insert(crash_id.to_string(), entry);
    let written = write_atomically(&path, &sidecar);
    // Unlocking also happens when `lock` is dropped; doing it explicitly documents the span.
    let _ = fs4::FileExt::unlock(&lock);
    written.map(|()| path)
}

fn read_existing(path: &Path) -> Result<Sidecar, SidecarError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Sidecar::default()),
        Err(source) => {
            return Err(SidecarError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let sidecar: Sidecar = serde_json::from_str(&text).map_err(|e| SidecarError::Corrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if sidecar.schema != SIDECAR_SCHEMA {
        return Err(SidecarError::Schema {
            path: path.to_path_buf(),
            found: sidecar.schema,
            expected: SIDECAR_SCHEMA,
        });
    }
    Ok(sidecar)
}

fn write_atomically(path: &Path, sidecar: &Sidecar) -> Result<(), SidecarError> {
    let write_err = |source| SidecarError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut json =
        serde_json::to_vec_pretty(sidecar).map_err(|e| write_err(std::io::Error::other(e)))?;
    json.push(b'\n');
    // Session files are ordinary user files (0644), readable like the session's own.
    write_atomic(path, &json, FileMode::Shared).map_err(write_err)
}
