//! What can be wrong with a session folder, phrased for a tester.

use serde::Serialize;
use thiserror::Error;

/// A session folder that cannot be used, with the file (and, for `.jsonl` files, the
/// 1-based line) where the problem is. Displays as e.g.
/// `steps.jsonl line 7: not valid JSON (expected `,` or `}` at column 14)`. Typed on the
/// wire too, so the window words a session's problem in its own language.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[error("{file}{}: {problem}", line_suffix(.line))]
pub struct SessionError {
    /// The file name inside the session folder (or the folder itself).
    pub file: String,
    /// 1-based line number for line-oriented files.
    #[cfg_attr(feature = "specta", specta(type = Option<u32>))]
    pub line: Option<usize>,
    pub problem: SessionProblem,
}

impl SessionError {
    pub fn in_file(file: &str, problem: SessionProblem) -> Self {
        SessionError {
            file: file.to_owned(),
            line: None,
            problem,
        }
    }

    pub(crate) fn at_line(file: &str, line: usize, problem: SessionProblem) -> Self {
        SessionError {
            file: file.to_owned(),
            line: Some(line),
            problem,
        }
    }
}

fn line_suffix(line: &Option<usize>) -> String {
    line.map(|n| format!(" line {n}")).unwrap_or_default()
}

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum SessionProblem {
    #[error("the session folder does not exist")]
    FolderMissing,
    #[error("is not a valid session name ({detail})")]
    BadFolderName { detail: String },
    #[error("is a symbolic link; Whittle does not follow links out of the workspace")]
    SymlinkedFolder,
    #[error("missing (this folder is not a Whittle session)")]
    Missing,
    #[error("cannot be read ({detail})")]
    Unreadable { detail: String },
    #[error("is not valid UTF-8 text")]
    NotUtf8,
    #[error("is larger than {limit_bytes} bytes; refusing to read it")]
    FileTooLarge {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        limit_bytes: usize,
    },
    #[error("the file passes {limit_bytes} bytes here; refusing to read more")]
    FilePastLimit {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        limit_bytes: usize,
    },
    #[error("is a symbolic link to a file outside the session folder; refusing to follow it")]
    SymlinkOutside,
    #[error("is longer than {limit_bytes} bytes; refusing to read it")]
    LineTooLong {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        limit_bytes: usize,
    },
    #[error("holds more than {limit} records; refusing to read more")]
    TooManyRecords {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        limit: usize,
    },
    #[error("not valid JSON ({detail})")]
    InvalidJson { detail: String },
    #[error("ends in the middle of a record (the file is truncated or still being written)")]
    Truncated,
    #[error("not a valid {what} ({detail})")]
    InvalidRecord { what: String, detail: String },
    #[error("unknown crash kind {kind} (expected java, anr or native)")]
    UnknownCrashKind { kind: String },
    #[error("crash_id is empty")]
    EmptyCrashId,
    #[error("crash id {crash_id} appears again (first on line {first_line})")]
    DuplicateCrashId {
        crash_id: String,
        #[cfg_attr(feature = "specta", specta(type = u32))]
        first_line: usize,
    },
    #[error("step index 0 is invalid (indexes start at 1)")]
    StepIndexZero,
    #[error("step {index} appears again (first on line {first_line})")]
    DuplicateStepIndex {
        index: u32,
        #[cfg_attr(feature = "specta", specta(type = u32))]
        first_line: usize,
    },
    #[error("{} missing (step {found} follows step {previous})", missing_range(*.previous, *.found))]
    MissingStepIndexes { previous: u32, found: u32 },
    #[error("step {index} comes after step {previous} (steps must be numbered 1, 2, 3… in order)")]
    StepOutOfOrder { index: u32, previous: u32 },
    #[error("screenshot_src {path} is not a relative path inside the session folder")]
    ScreenshotOutsideSession { path: String },
    #[error(
        "crash {crash_id} lists step {index} in repro_path, but steps.jsonl has no step {index}"
    )]
    ReproPathUnknownStep { crash_id: String, index: u32 },
    #[error("crash {crash_id} lists step {index} twice in repro_path")]
    ReproPathRepeatsStep { crash_id: String, index: u32 },
    #[error("nests lists or objects deeper than {limit} levels; refusing to read it")]
    TooDeep {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        limit: usize,
    },
}

fn missing_range(previous: u32, found: u32) -> String {
    let first = previous.saturating_add(1);
    let last = found.saturating_sub(1);
    if first == last {
        format!("step {first} is")
    } else {
        format!("steps {first}–{last} are")
    }
}

/// Quotes an untrusted string for an error or a description: control characters
/// escaped, at most `max` characters, so a hostile value cannot forge lines or flood.
pub(crate) fn quote_untrusted(s: &str, max: usize) -> String {
    let mut out = String::from("\"");
    for (taken, c) in s.chars().enumerate() {
        if taken == max {
            out.push('…');
            break;
        }
        out.extend(c.escape_debug());
    }
    out.push('"');
    out
}

/// Like [`quote_untrusted`] without the quotes, for prose: control characters escaped,
/// at most `max` characters.
pub(crate) fn clip_untrusted(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (taken, c) in s.chars().enumerate() {
        if taken == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
