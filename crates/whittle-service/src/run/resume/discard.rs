//! Ending an interrupted run without resuming it (the window's *Discard*): the journal
//! notes it, so it is never resumed, and the evidence's `meta.json` says `failed`, so
//! nothing lists it as running or interrupted any more. Its evidence stays as it was
//! (attempts, screenshots, log) for whoever wants to read it.

use std::path::{Path, PathBuf};

use serde_json::Value;
use whittle_core::session::{resolve_session_dir, validate_session_id, META_FILE};

use super::super::journal::{has_journal, DiscardMark, Journal, JournalError};
use super::super::lock::RunLock;
use super::{ensure_unfinished, ResumeError};
use crate::atomic::{write_atomic, FileMode};

/// Discards the run of evidence session `evidence_session` in `workspace`. Refused
/// while the run is going on or once it ended with a verdict.
pub fn discard(workspace: &Path, evidence_session: &str) -> Result<(), ResumeError> {
    validate_session_id(evidence_session).map_err(|e| ResumeError::Unreadable {
        evidence: evidence_session.to_owned(),
        detail: e.to_string(),
    })?;
    let dir = resolve_session_dir(workspace, evidence_session)?;
    let _lock = RunLock::acquire(&dir)?;
    let mark = DiscardMark {
        at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    // A run from before journals has nothing to note, and neither has one that died
    // writing its journal's first record (it recorded nothing, and a journal without
    // its header takes no line); its meta alone says it ended.
    if has_journal(&dir) {
        match Journal::reopen(&dir) {
            Ok((journal, contents)) => {
                ensure_unfinished(&dir, evidence_session, &contents)?;
                journal.record_discard(&mark)?;
            }
            Err(JournalError::FirstRecordCut { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    mark_failed(&dir).map_err(|e| ResumeError::Unreadable {
        evidence: evidence_session.to_owned(),
        detail: e.to_string(),
    })
}

/// Why a discarded run's `meta.json` could not be marked `failed`.
#[derive(Debug, thiserror::Error)]
enum MarkFailedError {
    /// Worded as the bare cause: `ResumeError::Unreadable` already names the run.
    #[error("{0}")]
    Read(#[source] std::io::Error),
    #[error("{} is not a JSON object", .path.display())]
    NotAnObject { path: PathBuf },
    #[error("{0}")]
    Encode(#[source] serde_json::Error),
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// `meta.json`'s `status` set to `failed` when it still says `running`; every other
/// field (this Whittle may not know them all) is kept as it is.
fn mark_failed(dir: &Path) -> Result<(), MarkFailedError> {
    let path = dir.join(META_FILE);
    let text = std::fs::read_to_string(&path).map_err(MarkFailedError::Read)?;
    let Ok(Value::Object(mut meta)) = serde_json::from_str::<Value>(&text) else {
        return Err(MarkFailedError::NotAnObject { path });
    };
    if meta.get("status").and_then(Value::as_str) != Some("running") {
        return Ok(());
    }
    meta.insert("status".into(), "failed".into());
    let mut bytes = serde_json::to_vec_pretty(&meta).map_err(MarkFailedError::Encode)?;
    bytes.push(b'\n');
    write_atomic(&path, &bytes, FileMode::Private)
        .map_err(|source| MarkFailedError::Write { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run that died writing its journal's first record can still be ended (it was
    /// stuck as interrupted: neither resumable nor discardable).
    #[test]
    fn a_run_whose_first_journal_record_was_cut_off_is_discarded() {
        let ws = tempfile::tempdir().unwrap();
        let dir = ws.path().join("sessions").join("e1");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(META_FILE),
            br#"{"status": "running", "extra": {}}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join(super::super::super::JOURNAL_FILE),
            br#"{"record": "ru"#,
        )
        .unwrap();
        discard(ws.path(), "e1").unwrap();
        let meta: Value =
            serde_json::from_slice(&std::fs::read(dir.join(META_FILE)).unwrap()).unwrap();
        assert_eq!(meta["status"], "failed");
        assert_eq!(meta["extra"], serde_json::json!({}), "other fields kept");
    }
}
