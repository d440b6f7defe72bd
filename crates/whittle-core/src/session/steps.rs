//! Reading `steps.jsonl`: strict about the index sequence (replays are addressed by
//! index), lenient about fields Whittle does not act on.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Component, Path};

use serde::Deserialize;
use serde_json::Value;

use crate::model::{Step, StepResult};

use super::error::{quote_untrusted, SessionError, SessionProblem};
use super::jsonl::{json_error_detail, value_text, JsonlReader};
use super::open::open_session_file;

pub const STEPS_FILE: &str = "steps.jsonl";

#[derive(Deserialize)]
struct RawStep {
    index: u32,
    #[serde(default)]
    ts: Option<Value>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    result: Option<String>,
    /// A string, or (some recorders) the JSON object itself: kept as its JSON text.
    #[serde(default)]
    notes: Option<Value>,
    #[serde(default)]
    screenshot_src: Option<String>,
    #[serde(default)]
    screenshot_redacted: Option<bool>,
}

/// A missing `steps.jsonl` means a session with no steps yet.
pub(crate) fn read_steps(dir: &Path) -> Result<Vec<Step>, SessionError> {
    let Some(file) = open_session_file(dir, STEPS_FILE)? else {
        return Ok(Vec::new());
    };
    parse_steps(BufReader::new(file))
}

/// The steps of a `steps.jsonl` text, as [`super::load_session`] reads them (errors name
/// `steps.jsonl` and the line). Public so the fuzzer can drive the real parser.
pub fn parse_steps(reader: impl BufRead) -> Result<Vec<Step>, SessionError> {
    let mut steps: Vec<Step> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut first_line_of: BTreeMap<u32, usize> = BTreeMap::new();
    for line in JsonlReader::new(STEPS_FILE, reader) {
        let line = line?;
        let at = |problem| SessionError::at_line(STEPS_FILE, line.number, problem);
        let raw: RawStep = serde_json::from_value(line.value).map_err(|e| {
            at(SessionProblem::InvalidRecord {
                what: "step".into(),
                detail: json_error_detail(&e),
            })
        })?;
        if raw.index == 0 {
            return Err(at(SessionProblem::StepIndexZero));
        }
        if let Some(&first_line) = first_line_of.get(&raw.index) {
            return Err(at(SessionProblem::DuplicateStepIndex {
                index: raw.index,
                first_line,
            }));
        }
        if let Some(src) = &raw.screenshot_src {
            if !is_inside_session(src) {
                return Err(at(SessionProblem::ScreenshotOutsideSession {
                    path: quote_untrusted(src, 80),
                }));
            }
        }
        first_line_of.insert(raw.index, line.number);
        lines.push(line.number);
        steps.push(into_step(raw));
    }
    check_sequence(&steps, &lines)?;
    Ok(steps)
}

/// Indexes must read 1, 2, 3… in file order. Order is judged over the whole file
/// first, so `1, 3, 2` is reported as out of order rather than as step 2 missing.
fn check_sequence(steps: &[Step], lines: &[usize]) -> Result<(), SessionError> {
    // `skip`, not `&lines[1..]`: an empty file has no lines (found by the fuzzer).
    let pairs = || steps.windows(2).zip(lines.iter().skip(1));
    if let Some((pair, &line)) = pairs().find(|(pair, _)| pair[1].index < pair[0].index) {
        return Err(SessionError::at_line(
            STEPS_FILE,
            line,
            SessionProblem::StepOutOfOrder {
                index: pair[1].index,
                previous: pair[0].index,
            },
        ));
    }
    let mut previous = 0;
    for (step, &line) in steps.iter().zip(lines) {
        if step.index != previous + 1 {
            return Err(SessionError::at_line(
                STEPS_FILE,
                line,
                SessionProblem::MissingStepIndexes {
                    previous,
                    found: step.index,
                },
            ));
        }
        previous = step.index;
    }
    Ok(())
}

fn into_step(raw: RawStep) -> Step {
    Step {
        index: raw.index,
        ts: raw.ts.and_then(value_text),
        action: raw.action.unwrap_or_default(),
        result: parse_result(raw.result.as_deref()),
        notes: raw.notes.and_then(value_text).unwrap_or_default(),
        screenshot_src: raw.screenshot_src,
        screenshot_redacted: raw.screenshot_redacted.unwrap_or(false),
    }
}

/// `result` does not drive replays, so recorders' variants ("failed", "error") are
/// read as a failure and anything else as ok, instead of rejecting the session.
fn parse_result(result: Option<&str>) -> StepResult {
    match result.map(str::to_ascii_lowercase) {
        Some(r) if r.starts_with("fail") || r == "error" => StepResult::Fail,
        _ => StepResult::Ok,
    }
}

fn is_inside_session(src: &str) -> bool {
    let path = Path::new(src);
    !src.is_empty()
        && !src.contains('\0')
        && !src.starts_with(['/', '\\'])
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}
