//! Writes one approved result into `crashes.minimized.json` without ever touching
//! `crashes.jsonl` and without losing another writer's entry; reads it back with a note
//! for every entry whose fingerprint an older (or newer) analyzer computed.
use std::path::{Path, PathBuf};

use crate::atomic::{write_atomic, FileMode};
use crate::folder_lock::lockable;
use whittle_core::model::{FingerprintAge, MinimizedEntry, Sidecar, SIDECAR_FILE, SIDECAR_SCHEMA};
use whittle_core::nesting::{check_json_nesting, TooDeep};

/// Off Unix only: the file the read-modify-write is locked on where a folder cannot be
/// opened as a file (`folder_lock.rs`). Never deleted: removing a lock file while
/// another process waits on it would let two writers in at once.
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
    /// Refused before parsing: a session folder is untrusted, and every level costs stack.
    #[error("{path} {source}")]
    TooDeep {
        path: PathBuf,
        #[source]
        source: TooDeep,
    },
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
    match write_sidecar_entry_unless(session_dir, crash_id, entry, |_| false)? {
        SidecarWrite::Written(path) => Ok(path),
        SidecarWrite::Kept { path, .. } => Ok(path),
    }
}

/// What [`write_sidecar_entry_unless`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum SidecarWrite {
    /// The entry was written into the sidecar at this path.
    Written(PathBuf),
    /// Nothing was written: the entry the sidecar holds for the crash was to stay.
    Kept { path: PathBuf, held: MinimizedEntry },
}

/// [`write_sidecar_entry`], unless `keep` says the entry the sidecar already holds for
/// `crash_id` must stay. `keep` is asked under the sidecar's lock, between the read and
/// the write, so no other approval can slip in between the look and the write.
pub fn write_sidecar_entry_unless(
    session_dir: &Path,
    crash_id: &str,
    entry: MinimizedEntry,
    keep: impl FnOnce(&MinimizedEntry) -> bool,
) -> Result<SidecarWrite, SidecarError> {
    if crash_id.is_empty() {
        return Err(SidecarError::EmptyCrashId);
    }
    if !session_dir.is_dir() {
        return Err(SidecarError::NoSessionDir(session_dir.to_path_buf()));
    }
    let path = session_dir.join(SIDECAR_FILE);
    let lock_err = |source| SidecarError::Lock {
        path: session_dir.to_path_buf(),
        source,
    };
    // The session folder itself is locked for the whole read-modify-write, as a run
    // holds its evidence folder: no lock file is left in the tester's folder.
    let lock = lockable(session_dir, LOCK_FILE, true).map_err(lock_err)?;
    // Fully qualified: std's inherent `File::lock` needs a newer Rust than our MSRV.
    fs4::FileExt::lock(&lock).map_err(lock_err)?;

    let written = read_existing(&path).and_then(|mut sidecar| {
        if let Some(held) = sidecar.crashes.get(crash_id).filter(|held| keep(held)) {
            return Ok(SidecarWrite::Kept {
                path: path.clone(),
                held: held.clone(),
            });
        }
        if let Some(note) = sidecar
            .crashes
            .get(crash_id)
            .and_then(|old| FingerprintNote::of(crash_id, old))
        {
            tracing::info!(%note, "replacing a sidecar entry");
        }
        sidecar.crashes.insert(crash_id.to_string(), entry);
        write_atomically(&path, &sidecar).map(|()| SidecarWrite::Written(path.clone()))
    });
    // Unlocking also happens when `lock` is dropped; doing it explicitly documents the span.
    let _ = fs4::FileExt::unlock(&lock);
    written
}

/// A sidecar entry whose fingerprint is not comparable with the ones computed now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FingerprintNote {
    pub crash_id: String,
    pub age: FingerprintAge,
}

impl FingerprintNote {
    /// `None` when the entry's fingerprint compares with today's (or it has none).
    pub fn of(crash_id: &str, entry: &MinimizedEntry) -> Option<FingerprintNote> {
        match entry.fingerprint_age() {
            FingerprintAge::Current | FingerprintAge::NoFingerprint => None,
            age => Some(FingerprintNote {
                crash_id: crash_id.to_string(),
                age,
            }),
        }
    }
}

impl std::fmt::Display for FingerprintNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "crash {}: {}", self.crash_id, self.age)
    }
}

/// A session's sidecar as read, with one note per entry from another analyzer version.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadSidecar {
    pub path: PathBuf,
    pub sidecar: Sidecar,
    pub notes: Vec<FingerprintNote>,
}

/// Reads the sidecar of `session_dir`; `Ok(None)` when there is none yet. Old entries load
/// (a missing `fingerprint_version` means version 1) and are named in `notes`.
pub fn read_sidecar(session_dir: &Path) -> Result<Option<ReadSidecar>, SidecarError> {
    let path = session_dir.join(SIDECAR_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let sidecar = read_existing(&path)?;
    let notes: Vec<FingerprintNote> = sidecar
        .crashes
        .iter()
        .filter_map(|(id, entry)| FingerprintNote::of(id, entry))
        .collect();
    for note in &notes {
        tracing::info!(%note, "sidecar entry from another analyzer version");
    }
    Ok(Some(ReadSidecar {
        path,
        sidecar,
        notes,
    }))
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
    check_json_nesting(text.as_bytes()).map_err(|source| SidecarError::TooDeep {
        path: path.to_path_buf(),
        source,
    })?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use whittle_core::model::{Confidence, LEGACY_FINGERPRINT_VERSION};
    use whittle_core::signature::FINGERPRINT_VERSION;

    /// What Whittle wrote before fingerprint versions were recorded.
    const OLD_SIDECAR: &str = r#"{"schema":1,"crashes":{"c1":{"minimized_repro_path":[1,10,12],"minimized_attempts":9,"minimized_confidence":"high","minimized_complete":true,"target_fingerprint":"a3f2b89c1d0e","evidence_session":"2026-05-14_170000_minimize-checkout-npe","approved_at":"2026-05-14T17:05:00Z","engine_version":"0.1.0"}}}"#;

    fn new_entry() -> MinimizedEntry {
        MinimizedEntry {
            minimized_repro_path: vec![2, 5],
            minimized_attempts: 4,
            minimized_confidence: Confidence::Medium,
            minimized_complete: true,
            target_fingerprint: Some("0123456789ab".into()),
            evidence_session: "2026-06-01_090000_minimize-c2".into(),
            approved_at: "2026-06-01T09:10:00Z".into(),
            engine_version: "0.2.0".into(),
            fingerprint_version: FINGERPRINT_VERSION,
        }
    }

    #[test]
    fn no_sidecar_reads_as_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_sidecar(dir.path()).unwrap(), None);
    }

    #[test]
    fn an_old_sidecar_loads_and_names_its_old_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SIDECAR_FILE), OLD_SIDECAR).unwrap();
        let read = read_sidecar(dir.path()).unwrap().unwrap();
        assert_eq!(read.path, dir.path().join(SIDECAR_FILE));
        let entry = &read.sidecar.crashes["c1"];
        assert_eq!(entry.fingerprint_version, LEGACY_FINGERPRINT_VERSION);
        assert_eq!(entry.minimized_repro_path, vec![1, 10, 12]);
        assert_eq!(read.notes.len(), 1);
        assert_eq!(read.notes[0].crash_id, "c1");
        let text = read.notes[0].to_string();
        assert!(text.starts_with("crash c1: "), "{text}");
        assert!(text.contains("older analyzer"), "{text}");
        assert!(
            text.contains(&format!("version {FINGERPRINT_VERSION}")),
            "{text}"
        );
    }

    #[test]
    fn writing_next_to_an_old_entry_keeps_its_version_and_records_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SIDECAR_FILE), OLD_SIDECAR).unwrap();
        write_sidecar_entry(dir.path(), "c2", new_entry()).unwrap();
        let raw: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(SIDECAR_FILE)).unwrap())
                .unwrap();
        assert_eq!(raw["schema"], 1);
        assert_eq!(raw["crashes"]["c1"]["fingerprint_version"], 1);
        assert_eq!(
            raw["crashes"]["c2"]["fingerprint_version"],
            FINGERPRINT_VERSION
        );
        let read = read_sidecar(dir.path()).unwrap().unwrap();
        let noted: Vec<&str> = read.notes.iter().map(|n| n.crash_id.as_str()).collect();
        assert_eq!(noted, vec!["c1"]);

        // Re-minimizing c1 with this Whittle replaces the old entry: no note is left.
        write_sidecar_entry(dir.path(), "c1", new_entry()).unwrap();
        assert!(read_sidecar(dir.path()).unwrap().unwrap().notes.is_empty());
    }
}
