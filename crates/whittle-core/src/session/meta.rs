//! Reading `meta.json`.

use std::io::Read;
use std::path::Path;

use crate::model::SessionMeta;
use crate::nesting::check_json_nesting;

use super::error::{SessionError, SessionProblem};
use super::jsonl::{json_error_detail, MAX_LINE_BYTES};
use super::open::open_session_file;

pub const META_FILE: &str = "meta.json";

pub(crate) fn read_meta(dir: &Path) -> Result<SessionMeta, SessionError> {
    let err = |problem| SessionError::in_file(META_FILE, problem);
    if !dir.is_dir() {
        return Err(SessionError::in_file(
            &dir.display().to_string(),
            SessionProblem::FolderMissing,
        ));
    }
    let Some(file) = open_session_file(dir, META_FILE)? else {
        return Err(err(SessionProblem::Missing));
    };
    parse_meta(file)
}

/// A `meta.json` text, as [`super::load_session`] reads it (at most
/// [`MAX_LINE_BYTES`]). Public so the fuzzer can drive the real parser.
pub fn parse_meta(reader: impl Read) -> Result<SessionMeta, SessionError> {
    let err = |problem| SessionError::in_file(META_FILE, problem);
    let mut bytes = Vec::new();
    reader
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| {
            err(SessionProblem::Unreadable {
                detail: source.to_string(),
            })
        })?;
    if bytes.len() > MAX_LINE_BYTES {
        return Err(err(SessionProblem::FileTooLarge {
            limit_bytes: MAX_LINE_BYTES,
        }));
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| err(SessionProblem::NotUtf8))?;
    check_json_nesting(text.as_bytes()).map_err(|deep| {
        SessionError::at_line(
            META_FILE,
            deep.line,
            SessionProblem::TooDeep { limit: deep.limit },
        )
    })?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        err(SessionProblem::InvalidJson {
            detail: json_error_detail(&e),
        })
    })?;
    serde_json::from_value(value).map_err(|e| {
        err(SessionProblem::InvalidRecord {
            what: "session meta".into(),
            detail: json_error_detail(&e),
        })
    })
}
