//! Reading `meta.json`.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::model::SessionMeta;

use super::error::{SessionError, SessionProblem};
use super::jsonl::{json_error_detail, MAX_LINE_BYTES};

pub const META_FILE: &str = "meta.json";

pub(crate) fn read_meta(dir: &Path) -> Result<SessionMeta, SessionError> {
    let err = |problem| SessionError::in_file(META_FILE, problem);
    if !dir.is_dir() {
        return Err(SessionError::in_file(
            &dir.display().to_string(),
            SessionProblem::FolderMissing,
        ));
    }
    let file = match File::open(dir.join(META_FILE)) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(err(SessionProblem::Missing)),
        Err(source) => return Err(err(SessionProblem::Unreadable { source })),
    };
    let mut bytes = Vec::new();
    file.take(MAX_LINE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| err(SessionProblem::Unreadable { source }))?;
    if bytes.len() > MAX_LINE_BYTES {
        return Err(err(SessionProblem::FileTooLarge {
            limit_bytes: MAX_LINE_BYTES,
        }));
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| err(SessionProblem::NotUtf8))?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        err(SessionProblem::InvalidJson {
            detail: json_error_detail(&e),
        })
    })?;
    serde_json::from_value(value).map_err(|e| {
        err(SessionProblem::InvalidRecord {
            what: "session meta",
            detail: json_error_detail(&e),
        })
    })
}
