//! A finished (or interrupted) run read back from its evidence session, without
//! replaying anything: every attempt from `steps.jsonl` (each step's `notes` is the
//! attempt's journal record, written by `search`; evidence of older Whittles has a
//! notes shape of its own, still read), the result from `result.json`, the pool from
//! `meta.json`. Everything in the folder is untrusted: notes are read into typed fields
//! only, a line that does not fit is counted and skipped, and screenshot names must be
//! the archive's own form (`screenshots/attempt-NNN.png`).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use serde::Deserialize;
use whittle_core::engine::{FailureCause, Phase};
use whittle_core::model::{SessionStatus, Step};
use whittle_core::session::{
    parse_meta, parse_steps, SessionError, MAX_FILE_BYTES, META_FILE, STEPS_FILE,
};

use super::journal::JournalAttempt;
use super::recorded_attempt::{recorded_attempt, RecordedAttempt};
use super::{AttemptVerdict, PendingResult};
use crate::evidence::{read_result, validate_shot_name, ResultFileError};
use crate::replay::{MissReason, ObservedCrash};

#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRun {
    pub original_session: Option<String>,
    pub crash_id: Option<String>,
    pub created_at: String,
    /// `running` with no result: the run was interrupted (or is still going).
    pub session_status: SessionStatus,
    pub max_replays: Option<u32>,
    /// The pool (primary first) as the run recorded it.
    pub devices: Vec<String>,
    /// In attempt order.
    pub attempts: Vec<RecordedAttempt>,
    /// Steps whose notes are not an attempt record.
    pub unreadable_steps: u32,
    pub result: Result<PendingResult, NoRunResult>,
}

/// Why a recorded run has no result to read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoRunResult {
    /// No `result.json`: the run was interrupted, or is still going.
    #[error("the run left no result (it was interrupted, or is still running)")]
    Absent,
    /// `result.json` is there but unreadable. Its error's words, not the error itself:
    /// a `RecordedRun` is compared and cloned, and an `io::Error` can be neither.
    #[error("{detail}")]
    Unreadable { detail: String },
}

#[derive(Debug, thiserror::Error)]
pub enum RecordedRunError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("{file} cannot be read: {source}")]
    Open {
        file: &'static str,
        #[source]
        source: std::io::Error,
    },
}

/// The notes older Whittles wrote into each evidence step, before they were the
/// journal record.
#[derive(Deserialize)]
struct LegacyNotes {
    attempt: u32,
    phase: Phase,
    candidate: Vec<u32>,
    result: NotesResult,
    #[serde(default)]
    device: String,
    #[serde(default)]
    speculative: bool,
    #[serde(default)]
    duration_ms: Option<u32>,
}

#[derive(Deserialize)]
struct NotesResult {
    reproduced: bool,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    step: Option<u32>,
    #[serde(default)]
    signature: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    observed: Vec<ObservedCrash>,
    #[serde(default)]
    error: Option<String>,
}

pub fn read_recorded_run(evidence_dir: &Path) -> Result<RecordedRun, RecordedRunError> {
    let open = |file: &'static str| {
        File::open(evidence_dir.join(file))
            .map_err(|source| RecordedRunError::Open { file, source })
    };
    let meta = parse_meta(open(META_FILE)?)?;
    let steps = parse_steps(BufReader::new(open(STEPS_FILE)?))?;
    let text = |key: &str| {
        meta.extra
            .get(key)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let mut attempts = Vec::with_capacity(steps.len());
    let mut unreadable_steps = 0;
    for step in &steps {
        match attempt_of(step) {
            Some(attempt) => attempts.push(attempt),
            None => unreadable_steps += 1,
        }
    }
    // One attempt per number, the last recorded: a resumed run runs an attempt that had
    // no verdict (a device error, a cancel) again under its own number.
    attempts.reverse();
    attempts.sort_by_key(|a| a.attempt);
    attempts.dedup_by_key(|a| a.attempt);
    let result = read_result(evidence_dir).map_err(|e| match e {
        ResultFileError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            NoRunResult::Absent
        }
        other => NoRunResult::Unreadable {
            detail: other.to_string(),
        },
    });
    Ok(RecordedRun {
        original_session: text("original_session"),
        crash_id: text("crash_id"),
        created_at: meta.created_at,
        session_status: meta.status,
        max_replays: meta
            .extra
            .get("max_replays")
            .and_then(|v| v.as_u64())
            .and_then(|n| u32::try_from(n).ok()),
        devices: meta
            .extra
            .get("devices")
            .and_then(|v| v.as_array())
            .map(|list| {
                list.iter()
                    .filter_map(|d| d.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        attempts,
        unreadable_steps,
        result,
    })
}

/// Every attempt record the evidence steps of `evidence_dir` hold as their notes (steps
/// whose notes are not a record, as a foreign report server may write them, are left
/// out). Empty when the steps cannot be read.
pub(crate) fn evidence_records(evidence_dir: &Path) -> Vec<JournalAttempt> {
    evidence_lines(evidence_dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|line| line.record)
        .collect()
}

/// One evidence step, with the line of `steps.jsonl` it is on: a refusal names that
/// line, so whoever reads it can open the file there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EvidenceLine {
    pub line: usize,
    /// Its notes as an attempt record; `None` when they are not one.
    pub record: Option<JournalAttempt>,
}

/// Every step of `evidence_dir`'s `steps.jsonl` in file order, with its line number.
pub(crate) fn evidence_lines(evidence_dir: &Path) -> Result<Vec<EvidenceLine>, RecordedRunError> {
    let path = evidence_dir.join(STEPS_FILE);
    let open = || {
        File::open(&path).map_err(|source| RecordedRunError::Open {
            file: STEPS_FILE,
            source,
        })
    };
    // The bounded reader validates the file first; the text is read (as boundedly)
    // only to number its lines, which the reader skips when blank.
    let steps = parse_steps(BufReader::new(open()?))?;
    let mut text = String::new();
    open()?
        .take(MAX_FILE_BYTES as u64)
        .read_to_string(&mut text)
        .map_err(|source| RecordedRunError::Open {
            file: STEPS_FILE,
            source,
        })?;
    let numbers = text
        .split('\n')
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, _)| at + 1);
    Ok(steps
        .iter()
        .zip(numbers)
        .map(|(step, line)| EvidenceLine {
            line,
            record: serde_json::from_str::<JournalAttempt>(&step.notes).ok(),
        })
        .collect())
}

/// The attempt `step` records, or `None` when its notes are not an attempt record (of
/// this Whittle or an older one). The one reader of evidence notes.
pub fn attempt_of(step: &Step) -> Option<RecordedAttempt> {
    // Only the archive's own names: anything else in the file is not shown.
    let screenshot = step
        .screenshot_src
        .clone()
        .filter(|name| validate_shot_name(name).is_ok());
    if let Ok(record) = serde_json::from_str::<JournalAttempt>(&step.notes) {
        return Some(recorded_attempt(
            &record,
            screenshot,
            step.screenshot_redacted,
        ));
    }
    let notes: LegacyNotes = serde_json::from_str(&step.notes).ok()?;
    let r = notes.result;
    let verdict = match (r.reproduced, r.reason.as_deref()) {
        (true, _) => AttemptVerdict::Reproduced {
            signature: r.signature,
            label: r.label,
        },
        (false, Some("cancelled")) => AttemptVerdict::Cancelled,
        (false, Some("runtime_error")) => AttemptVerdict::Failed {
            cause: FailureCause::Recorded {
                detail: r.error.unwrap_or_default(),
            },
        },
        (false, other) => AttemptVerdict::NotReproduced {
            reason: match other {
                Some(reason) => serde_json::from_value(serde_json::json!(reason)).ok()?,
                None => MissReason::NoCrash,
            },
            step: r.step,
        },
    };
    Some(RecordedAttempt {
        attempt: notes.attempt,
        phase: notes.phase,
        candidate: notes.candidate,
        verdict,
        observed: r.observed,
        duration_ms: notes.duration_ms,
        screenshot,
        screenshot_redacted: step.screenshot_redacted,
        screenshot_before_step: None,
        device: notes.device,
        speculative: notes.speculative,
    })
}
