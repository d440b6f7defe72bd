//! Measures each line (one JSON-RPC message) a stdio server writes, and reads the `id`
//! of the message while it passes, so that an answer too long for the transport can be
//! named to the call it answered. rmcp drops such a line with a log line only
//! (`rmcp::transport::async_rw`), which left the call to time out.
//!
//! The `id` is read by a bounded byte scan, not by parsing the line: a line over the
//! limit is exactly the one that must never be held in memory, and the `id` may come
//! last (the TypeScript SDK writes `{"result":…,"jsonrpc":"2.0","id":7}`). The scan
//! only follows strings and nesting to find the top-level `"id"` member; its value,
//! at most `MAX_ID_BYTES` long, is then parsed by serde_json.
use rmcp::model::RequestId;

/// Longest `id` value kept: a JSON-RPC id is a number or a short string.
const MAX_ID_BYTES: usize = 128;
/// Longest member name compared: only `id` and `method` matter.
const MAX_KEY_BYTES: usize = 8;

/// A line that ended over the limit: its full length and, when it is a response, the
/// request it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OversizedLine {
    pub(crate) bytes: u64,
    /// `None` for a request or notification of the server's own, or no readable id.
    pub(crate) answers: Option<RequestId>,
}

/// Follows one line at a time; `feed` the bytes as they arrive, in any pieces.
#[derive(Debug)]
pub(crate) struct AnswerMeter {
    limit: u64,
    line_bytes: u64,
    scan: TopLevelScan,
}

impl AnswerMeter {
    /// `limit`: the longest line, its newline included, the transport accepts.
    pub(crate) fn new(limit: usize) -> AnswerMeter {
        AnswerMeter {
            limit: u64::try_from(limit).unwrap_or(u64::MAX),
            line_bytes: 0,
            scan: TopLevelScan::default(),
        }
    }

    /// Takes `bytes` up to and including the first newline; returns how many it took,
    /// and the line's verdict when that newline ended a line over the limit.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> (usize, Option<OversizedLine>) {
        let newline = bytes.iter().position(|b| *b == b'\n');
        let take = newline.map_or(bytes.len(), |at| at + 1);
        let piece = &bytes[..take];
        self.line_bytes = self.line_bytes.saturating_add(piece.len() as u64);
        for &b in piece {
            self.scan.push(b);
        }
        if newline.is_none() {
            return (take, None);
        }
        let line_bytes = std::mem::take(&mut self.line_bytes);
        let scan = std::mem::take(&mut self.scan);
        let verdict = (line_bytes > self.limit).then(|| OversizedLine {
            // The newline is the transport's, not the message's.
            bytes: line_bytes - 1,
            answers: scan.response_id(),
        });
        (take, verdict)
    }
}

/// Where the scan stands inside the top-level object.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Before the object's `{`.
    #[default]
    Start,
    /// Inside the top-level object, where a member name may come.
    Key,
    /// After a member name, before its `:`.
    Colon,
    /// In a member's value.
    Value,
    /// After the top-level object, or the line is not an object.
    Done,
}

#[derive(Debug, Default)]
struct TopLevelScan {
    place: Place,
    /// Open objects and arrays, the top-level object included.
    depth: u32,
    in_string: bool,
    escaped: bool,
    key: Vec<u8>,
    key_too_long: bool,
    /// The member whose value is being read is `id`.
    reading_id: bool,
    id: Vec<u8>,
    id_too_long: bool,
    id_seen: bool,
    has_method: bool,
}

impl TopLevelScan {
    fn push(&mut self, b: u8) {
        if self.in_string {
            self.push_in_string(b);
            return;
        }
        match self.place {
            Place::Done => {}
            Place::Start => match b {
                b'{' => {
                    self.depth = 1;
                    self.place = Place::Key;
                }
                b' ' | b'\t' | b'\r' | b'\n' | 0xEF | 0xBB | 0xBF => {}
                _ => self.place = Place::Done,
            },
            Place::Key => match b {
                b'"' => {
                    self.in_string = true;
                    self.key.clear();
                    self.key_too_long = false;
                }
                b'}' => self.place = Place::Done,
                _ => {}
            },
            Place::Colon => {
                if b == b':' {
                    self.place = Place::Value;
                    self.reading_id = self.key == b"id" && !self.key_too_long;
                    if self.key == b"method" && !self.key_too_long {
                        self.has_method = true;
                    }
                }
            }
            Place::Value => self.push_in_value(b),
        }
    }

    fn push_in_string(&mut self, b: u8) {
        let at_key = self.place == Place::Key;
        let in_id = self.reading_id && self.depth == 1;
        if in_id {
            self.keep_id_byte(b);
        }
        if self.escaped {
            self.escaped = false;
            if at_key {
                // An escaped name is never a plain `id` or `method`.
                self.key_too_long = true;
            }
            return;
        }
        match b {
            b'\\' => self.escaped = true,
            b'"' => {
                self.in_string = false;
                if at_key {
                    self.place = Place::Colon;
                }
            }
            _ if at_key => {
                if self.key.len() < MAX_KEY_BYTES {
                    self.key.push(b);
                } else {
                    self.key_too_long = true;
                }
            }
            _ => {}
        }
    }

    fn push_in_value(&mut self, b: u8) {
        match b {
            b'"' => {
                self.in_string = true;
                if self.reading_id && self.depth == 1 {
                    self.keep_id_byte(b);
                }
                return;
            }
            b'{' | b'[' => self.depth = self.depth.saturating_add(1),
            b'}' | b']' if self.depth > 1 => self.depth -= 1,
            b',' | b'}' if self.depth == 1 => {
                if self.reading_id {
                    self.reading_id = false;
                    self.id_seen = true;
                }
                self.place = if b == b'}' { Place::Done } else { Place::Key };
                return;
            }
            _ => {}
        }
        if self.reading_id {
            self.keep_id_byte(b);
        }
    }

    fn keep_id_byte(&mut self, b: u8) {
        if self.id.len() < MAX_ID_BYTES {
            self.id.push(b);
        } else {
            self.id_too_long = true;
        }
    }

    /// The `id` of a response (a message with an `id` and no `method`).
    fn response_id(&self) -> Option<RequestId> {
        if !self.id_seen || self.id_too_long || self.has_method {
            return None;
        }
        serde_json::from_slice(&self.id).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn verdict(line: &str, limit: usize) -> Option<OversizedLine> {
        let mut meter = AnswerMeter::new(limit);
        let bytes = format!("{line}\n");
        let mut rest = bytes.as_bytes();
        // Fed in small pieces, as a pipe delivers them.
        let mut found = None;
        while !rest.is_empty() {
            let piece = &rest[..rest.len().min(3)];
            let (took, v) = meter.feed(piece);
            rest = &rest[took..];
            if v.is_some() {
                found = v;
            }
        }
        found
    }

    fn id_of(line: &str) -> Option<RequestId> {
        verdict(line, 0).and_then(|v| v.answers)
    }

    #[test]
    fn a_line_within_the_limit_passes_and_one_over_it_is_measured() {
        let line = r#"{"jsonrpc":"2.0","id":4,"result":{"text":"abcdef"}}"#;
        assert_eq!(verdict(line, line.len() + 1), None);
        assert_eq!(
            verdict(line, line.len()),
            Some(OversizedLine {
                bytes: line.len() as u64,
                answers: Some(NumberOrString::Number(4)),
            })
        );
    }

    #[test]
    fn the_top_level_id_is_found_first_last_or_as_a_string() {
        assert_eq!(
            id_of(r#"{"result":{"id":1,"x":[{"id":2}]},"jsonrpc":"2.0","id":7}"#),
            Some(NumberOrString::Number(7))
        );
        assert_eq!(
            id_of(r#" { "id" : "req-\"9\"" , "result" : {"content":[]} } "#),
            Some(NumberOrString::String("req-\"9\"".into()))
        );
        assert_eq!(
            id_of(r#"{"result":{"text":"\"id\":5, }"},"id":12}"#),
            Some(NumberOrString::Number(12))
        );
    }

    #[test]
    fn no_id_is_made_up() {
        // A request or notification of the server's: its id is in the server's space.
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#), None);
        assert_eq!(id_of(r#"{"method":"x","params":{"id":3}}"#), None);
        assert_eq!(id_of(r#"{"result":{"id":3}}"#), None);
        assert_eq!(id_of(r#"[{"id":3}]"#), None);
        assert_eq!(id_of(r#"{"\u0069d":3,"result":1}"#), None);
        assert_eq!(id_of(r#"{"id":{"nested":1},"result":1}"#), None);
        let long = format!(r#"{{"id":"{}","result":1}}"#, "x".repeat(MAX_ID_BYTES));
        assert_eq!(id_of(&long), None);
        assert_eq!(id_of("not json at all"), None);
    }

    #[test]
    fn each_line_is_measured_on_its_own() {
        let mut meter = AnswerMeter::new(10);
        let input = b"{\"id\":1}\n{\"id\":2,\"result\":\"long enough\"}\n{}\n";
        let mut rest = &input[..];
        let mut verdicts = Vec::new();
        while !rest.is_empty() {
            let (took, v) = meter.feed(rest);
            rest = &rest[took..];
            verdicts.extend(v);
        }
        assert_eq!(
            verdicts,
            vec![OversizedLine {
                bytes: 31,
                answers: Some(NumberOrString::Number(2)),
            }]
        );
    }
}
