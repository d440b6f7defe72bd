//! The journal's seal: every line carries `seal`, an HMAC-SHA256 under this
//! installation's journal key over the previous line's seal and the line itself. The
//! first line's predecessor is the hash of the original session's files, so the chain
//! is tied to that session. A resume, and an approval of a run read from its files
//! (`sealed_run.rs`), verify the chain from the top with the same reader: a line edited,
//! dropped from the middle, reordered, duplicated or copied from another run breaks it
//! at the first such line, and either refuses naming it. Write access to the
//! evidence folder can still destroy a run (delete the journal, cut its tail); without
//! the key it cannot forge one (docs/SECURITY.md, "Evidence").
//!
//! The key is 32 random bytes in the user's data folder (`whittle/journal.key`, private),
//! made at first use. Where that folder cannot be written the run still goes on, with a
//! key that lives only as long as the process: its journal cannot be resumed by a later
//! one (it reads as sealed by another key).

use std::path::PathBuf;
use std::sync::OnceLock;

use hmac::{Hmac, Mac};
use rand::RngCore;
use serde_json::{Map, Value};
use sha2::Sha256;

/// The field a sealed line carries its seal in.
pub(crate) const SEAL_FIELD: &str = "seal";
const KEY_LEN: usize = 32;

/// The seal of `line` (without its own seal field) after `previous`.
pub(crate) fn seal(previous: &str, line: &Map<String, Value>) -> String {
    hex::encode(mac_of(previous, line).finalize().into_bytes())
}

/// Whether `claimed` is the seal of `line` after `previous` (compared in constant time).
pub(crate) fn verify(previous: &str, line: &Map<String, Value>, claimed: &str) -> bool {
    let Ok(claimed) = hex::decode(claimed) else {
        return false;
    };
    mac_of(previous, line).verify_slice(&claimed).is_ok()
}

/// The HMAC over `previous`, a newline and `line`, ready to finish or verify.
fn mac_of(previous: &str, line: &Map<String, Value>) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(journal_key()).expect("HMAC takes any key length");
    mac.update(previous.as_bytes());
    mac.update(b"\n");
    // A JSON map serializes its keys sorted: the writer and the reader get the same bytes.
    mac.update(serde_json::to_string(line).unwrap_or_default().as_bytes());
    mac
}

fn journal_key() -> &'static [u8] {
    static KEY: OnceLock<Vec<u8>> = OnceLock::new();
    KEY.get_or_init(|| match key_file().map(|path| load_or_make(&path)) {
        Some(Ok(key)) => key,
        Some(Err(e)) => {
            tracing::warn!(error = %e, "no journal key on disk: this process's journals cannot be resumed by another");
            fresh_key()
        }
        None => {
            tracing::warn!("no data folder for the journal key: this process's journals cannot be resumed by another");
            fresh_key()
        }
    })
}

fn key_file() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("whittle").join("journal.key"))
}

fn fresh_key() -> Vec<u8> {
    let mut key = vec![0u8; KEY_LEN];
    rand::rngs::OsRng.fill_bytes(&mut key);
    key
}

/// Reads the key, or makes it: written whole (atomically) and private, so two processes
/// starting at once end with one key they both read back.
fn load_or_make(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    if let Ok(key) = std::fs::read(path) {
        if key.len() == KEY_LEN {
            return Ok(key);
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let key = fresh_key();
    // Written whole to a private temporary file, then linked into place: the link
    // fails if the key exists, so only the first writer's key stands and a racing
    // second one reads it back (never a half-written key).
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut temp, &key)?;
    temp.as_file().sync_all()?;
    let made = std::fs::hard_link(temp.path(), path);
    match made {
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
