//! Where this installation's journal key lives, and what state it is in: 32 random bytes
//! in the user's data folder (`whittle/journal.key`, readable by the user alone), made at
//! first use. Every journal a run writes is sealed with it (`journal_seal.rs`), and a
//! resume or an approval read from files checks the seal with it, so a key that cannot
//! be read would make every later run unresumable and unapprovable: a damaged key is put
//! aside (`journal.key.damaged-<seconds>`, kept for whoever looks into it) and a new one
//! made, and `whittle doctor` reports the key's state ([`key_state`]).

use std::path::{Path, PathBuf};

use rand::RngCore;
use serde::Serialize;

pub(crate) const KEY_LEN: usize = 32;

/// The key file of this user.
pub(crate) fn key_file() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("whittle").join("journal.key"))
}

pub(crate) fn fresh_key() -> Vec<u8> {
    let mut key = vec![0u8; KEY_LEN];
    rand::rngs::OsRng.fill_bytes(&mut key);
    key
}

/// The state of the journal key, as the doctor reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyState {
    /// A key of the right size, readable by this user alone.
    Ready,
    /// None yet: the first run makes it (its folder can be made).
    NotMadeYet,
    /// The file is not a key (another size, or not a file): the next run puts it aside
    /// and makes a new one; runs sealed with the old key can no longer be approved here.
    Damaged { detail: String },
    /// Others than this user may read it (group or other permission bits): they could
    /// forge a run's seal.
    NotPrivate { mode: u32 },
    /// No data folder, or the key cannot be read or made there: every run's journal is
    /// sealed with a key of its process only.
    Unusable { detail: String },
}

/// The state of the key at `path` (`None`: this user has no data folder).
pub fn key_state(path: Option<&Path>) -> KeyState {
    let Some(path) = path else {
        return KeyState::Unusable {
            detail: "this user has no data folder ($XDG_DATA_HOME or $HOME)".into(),
        };
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match creatable(path) {
                Ok(()) => KeyState::NotMadeYet,
                Err(detail) => KeyState::Unusable { detail },
            }
        }
        Err(e) => {
            return KeyState::Unusable {
                detail: format!("{}: {e}", path.display()),
            }
        }
    };
    if !meta.file_type().is_file() {
        return KeyState::Damaged {
            detail: format!("{} is not a file", path.display()),
        };
    }
    if meta.len() != KEY_LEN as u64 {
        return KeyState::Damaged {
            detail: format!(
                "{} holds {} bytes, not a key's {KEY_LEN}",
                path.display(),
                meta.len()
            ),
        };
    }
    if let Err(e) = std::fs::File::open(path) {
        return KeyState::Unusable {
            detail: format!("{}: {e}", path.display()),
        };
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return KeyState::NotPrivate { mode };
        }
    }
    KeyState::Ready
}

/// Whether the key's folder exists or can be made (nothing is made here).
fn creatable(path: &Path) -> Result<(), String> {
    let mut folder = path.parent();
    while let Some(dir) = folder {
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() && !meta.permissions().readonly() => return Ok(()),
            Ok(_) => return Err(format!("{} cannot be written", dir.display())),
            Err(_) => folder = dir.parent(),
        }
    }
    Err(format!("no folder of {} exists", path.display()))
}

/// Reads the key, or makes it: written whole (atomically) and private, so two processes
/// starting at once end with one key they both read back. A damaged key is put aside
/// first (see the module documentation).
pub(crate) fn load_or_make(path: &Path) -> std::io::Result<Vec<u8>> {
    match std::fs::read(path) {
        Ok(key) if key.len() == KEY_LEN => return Ok(key),
        Ok(_) => put_aside(path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let key = fresh_key();
    // Written whole to a private temporary file, then linked into place: the link
    // fails if the key exists, so only the first writer's key stands and a racing
    // second one reads it back (never a half-written key).
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut temp, &key)?;
    temp.as_file().sync_all()?;
    match std::fs::hard_link(temp.path(), path) {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let key = std::fs::read(path)?;
            if key.len() == KEY_LEN {
                Ok(key)
            } else {
                Err(std::io::Error::other("the journal key file is damaged"))
            }
        }
        Err(e) => Err(e),
    }
}

/// Moves a damaged key out of the way, keeping it; another process doing the same at
/// once is no failure.
fn put_aside(path: &Path) -> std::io::Result<()> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let aside = path.with_file_name(format!("journal.key.damaged-{seconds}"));
    tracing::warn!(key = %path.display(), aside = %aside.display(), "the journal key is damaged: put aside, a new one is made (runs sealed with the old one can no longer be approved here)");
    match std::fs::rename(path, &aside) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_key_is_put_aside_and_a_new_one_made_and_the_state_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("whittle").join("journal.key");
        assert_eq!(key_state(Some(&path)), KeyState::NotMadeYet);
        let key = load_or_make(&path).unwrap();
        assert_eq!(key.len(), KEY_LEN);
        assert_eq!(
            load_or_make(&path).unwrap(),
            key,
            "read back, not made again"
        );
        assert_eq!(key_state(Some(&path)), KeyState::Ready);

        std::fs::write(&path, b"not a key").unwrap();
        assert!(matches!(key_state(Some(&path)), KeyState::Damaged { .. }));
        let new = load_or_make(&path).unwrap();
        assert_ne!(new, key);
        assert_eq!(std::fs::read(&path).unwrap(), new, "the new key stands");
        let aside: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("journal.key.damaged-")
            })
            .collect();
        assert_eq!(aside.len(), 1, "the damaged key is kept aside");
        assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"not a key");
    }

    #[cfg(unix)]
    #[test]
    fn a_key_others_may_read_is_not_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.key");
        std::fs::write(&path, [7u8; KEY_LEN]).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(key_state(Some(&path)), KeyState::NotPrivate { mode: 0o644 });
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(key_state(Some(&path)), KeyState::Ready);
        assert!(matches!(key_state(None), KeyState::Unusable { .. }));
    }
}
