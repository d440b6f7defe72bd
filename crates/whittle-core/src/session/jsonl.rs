//! Line-by-line reading of a `.jsonl` file with bounded memory: a line longer than
//! [`MAX_LINE_BYTES`] is an error at its line number, never one huge allocation, and
//! reading stops at the line that takes the file past [`MAX_FILE_BYTES`], so a huge
//! file costs at most that much memory however many lines it has.

use std::io::{BufRead, Read};

use serde_json::Value;

use super::error::{SessionError, SessionProblem};
use crate::nesting::check_json_nesting;

pub const MAX_LINE_BYTES: usize = 1024 * 1024;
pub(crate) const MAX_RECORDS: usize = 100_000;
/// A real session's steps or crashes are a few megabytes at most (a 1,000-step session
/// with long notes is ~2 MB); everything read is kept in memory, so this is the bound.
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

/// One non-blank line parsed as JSON, with its 1-based line number.
pub(crate) struct JsonLine {
    pub number: usize,
    pub value: Value,
}

pub(crate) struct JsonlReader<R> {
    file: &'static str,
    reader: R,
    line: usize,
    records: usize,
    bytes: usize,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> JsonlReader<R> {
    pub(crate) fn new(file: &'static str, reader: R) -> Self {
        JsonlReader {
            file,
            reader,
            line: 0,
            records: 0,
            bytes: 0,
            buf: Vec::new(),
            failed: false,
        }
    }

    fn fail(&mut self, problem: SessionProblem) -> Option<Result<JsonLine, SessionError>> {
        self.failed = true;
        Some(Err(SessionError::at_line(self.file, self.line, problem)))
    }
}

impl<R: BufRead> Iterator for JsonlReader<R> {
    type Item = Result<JsonLine, SessionError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            self.buf.clear();
            self.line += 1;
            let limit = (MAX_LINE_BYTES + 1) as u64;
            let read = (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut self.buf);
            match read {
                Ok(0) => return None,
                Ok(n) => self.bytes = self.bytes.saturating_add(n),
                Err(source) => {
                    return self.fail(SessionProblem::Unreadable {
                        detail: source.to_string(),
                    })
                }
            }
            if self.bytes > MAX_FILE_BYTES {
                return self.fail(SessionProblem::FilePastLimit {
                    limit_bytes: MAX_FILE_BYTES,
                });
            }
            let terminated = self.buf.last() == Some(&b'\n');
            if !terminated && self.buf.len() > MAX_LINE_BYTES {
                return self.fail(SessionProblem::LineTooLong {
                    limit_bytes: MAX_LINE_BYTES,
                });
            }
            let text = match std::str::from_utf8(&self.buf) {
                Ok(text) => text.trim(),
                Err(_) => return self.fail(SessionProblem::NotUtf8),
            };
            if text.is_empty() {
                continue;
            }
            self.records += 1;
            if self.records > MAX_RECORDS {
                return self.fail(SessionProblem::TooManyRecords { limit: MAX_RECORDS });
            }
            // Counted before parsing: serde would recurse 128 levels, and the readers
            // after it recurse again over what it built.
            if let Err(deep) = check_json_nesting(text.as_bytes()) {
                return self.fail(SessionProblem::TooDeep { limit: deep.limit });
            }
            return match serde_json::from_str::<Value>(text) {
                Ok(value) => Some(Ok(JsonLine {
                    number: self.line,
                    value,
                })),
                Err(err) if !terminated && err.is_eof() => self.fail(SessionProblem::Truncated),
                Err(err) => {
                    let detail = json_error_detail(&err);
                    self.fail(SessionProblem::InvalidJson { detail })
                }
            };
        }
    }
}

/// serde_json's message without its "at line 1 column N" tail: within one jsonl line
/// the column is what helps, the line is already in the error.
pub(crate) fn json_error_detail(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let tail = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&tail) {
        Some(head) if err.line() <= 1 && err.column() > 0 => {
            format!("{head} at column {}", err.column())
        }
        Some(head) if err.line() > 1 => {
            format!("{head} at line {} column {}", err.line(), err.column())
        }
        Some(head) => head.to_owned(),
        None => text,
    }
}

/// A free-text field as text: strings as they are, null as absent, any other JSON
/// (a recorder that wrote an object) as its compact JSON text.
pub(crate) fn value_text(value: Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}
