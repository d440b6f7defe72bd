//! The journal's seal: every line carries `seal`, an HMAC-SHA256 under this
//! installation's journal key over the previous line's seal and the line itself. The
//! first line carries the hash of the original session's files (`session_files`), so
//! the chain is tied to that session. A resume, and an approval of a run read from its files
//! (`sealed_run.rs`), verify the chain from the top with the same reader: a line edited,
//! dropped from the middle, reordered, duplicated or copied from another run breaks it
//! at the first such line, and either refuses naming it. Write access to the
//! evidence folder can still destroy a run (delete the journal, cut its tail); without
//! the key it cannot forge one (docs/SECURITY.md, "Evidence").
//!
//! The key is kept by `crate::journal_key`. Where it cannot be read or made the run still
//! goes on, with a key that lives only as long as the process: its journal cannot be
//! resumed or approved by a later one (it reads as sealed by another installation), and
//! `whittle doctor` says why.

use std::sync::OnceLock;

use hmac::{Hmac, Mac};
use serde_json::{Map, Value};
use sha2::Sha256;

use crate::journal_key::{fresh_key, key_file, load_or_make};

/// The field a sealed line carries its seal in.
pub(crate) const SEAL_FIELD: &str = "seal";

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
            tracing::warn!(error = %e, "no journal key on disk: this process's journals cannot be resumed or approved by another (whittle doctor checks the key)");
            fresh_key()
        }
        None => {
            tracing::warn!("no data folder for the journal key: this process's journals cannot be resumed or approved by another (whittle doctor checks the key)");
            fresh_key()
        }
    })
}
