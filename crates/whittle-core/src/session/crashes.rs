//! Reading `crashes.jsonl` and checking each crash's `repro_path` against the steps.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::model::{Crash, CrashKind};

use super::error::{quote_untrusted, SessionError, SessionProblem};
use super::jsonl::{json_error_detail, value_text, JsonlReader};
use super::open::open_session_file;

pub const CRASHES_FILE: &str = "crashes.jsonl";

#[derive(Deserialize)]
struct RawCrash {
    crash_id: String,
    #[serde(default)]
    ts: Option<Value>,
    kind: String,
    #[serde(default)]
    process: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    stack: Option<String>,
    step_index: u32,
    repro_path: Vec<u32>,
}

/// A missing or empty `crashes.jsonl` means no crashes. With `step_indexes`, every
/// `repro_path` entry must name an existing step (replays are built from them).
pub(crate) fn read_crashes(
    dir: &Path,
    step_indexes: Option<&BTreeSet<u32>>,
) -> Result<Vec<Crash>, SessionError> {
    let Some(file) = open_session_file(dir, CRASHES_FILE)? else {
        return Ok(Vec::new());
    };
    parse_crashes(BufReader::new(file), step_indexes)
}

/// The crashes of a `crashes.jsonl` text, checked against `step_indexes` when given, as
/// [`super::load_session`] reads them. Public so the fuzzer can drive the real parser.
pub fn parse_crashes(
    reader: impl BufRead,
    step_indexes: Option<&BTreeSet<u32>>,
) -> Result<Vec<Crash>, SessionError> {
    let mut crashes = Vec::new();
    let mut first_line_of: BTreeMap<String, usize> = BTreeMap::new();
    for line in JsonlReader::new(CRASHES_FILE, reader) {
        let line = line?;
        let at = |problem| SessionError::at_line(CRASHES_FILE, line.number, problem);
        let raw: RawCrash = serde_json::from_value(line.value).map_err(|e| {
            at(SessionProblem::InvalidRecord {
                what: "crash".into(),
                detail: json_error_detail(&e),
            })
        })?;
        let kind = parse_kind(&raw.kind).ok_or_else(|| {
            at(SessionProblem::UnknownCrashKind {
                kind: quote_untrusted(&raw.kind, 40),
            })
        })?;
        if raw.crash_id.trim().is_empty() {
            return Err(at(SessionProblem::EmptyCrashId));
        }
        let crash_id = quote_untrusted(&raw.crash_id, 40);
        if let Some(&first_line) = first_line_of.get(&raw.crash_id) {
            return Err(at(SessionProblem::DuplicateCrashId {
                crash_id,
                first_line,
            }));
        }
        let mut seen = BTreeSet::new();
        for &index in &raw.repro_path {
            if !seen.insert(index) {
                return Err(at(SessionProblem::ReproPathRepeatsStep {
                    crash_id: crash_id.clone(),
                    index,
                }));
            }
            if step_indexes.is_some_and(|steps| !steps.contains(&index)) {
                return Err(at(SessionProblem::ReproPathUnknownStep {
                    crash_id: crash_id.clone(),
                    index,
                }));
            }
        }
        first_line_of.insert(raw.crash_id.clone(), line.number);
        crashes.push(Crash {
            crash_id: raw.crash_id,
            ts: raw.ts.and_then(value_text),
            kind,
            process: raw.process.unwrap_or_default(),
            label: raw.label,
            stack: raw.stack.unwrap_or_default(),
            step_index: raw.step_index,
            repro_path: raw.repro_path,
        });
    }
    Ok(crashes)
}

fn parse_kind(kind: &str) -> Option<CrashKind> {
    match kind.to_ascii_lowercase().as_str() {
        "java" => Some(CrashKind::Java),
        "anr" => Some(CrashKind::Anr),
        "native" => Some(CrashKind::Native),
        _ => None,
    }
}
