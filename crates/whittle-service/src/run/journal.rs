//! The run's own journal, `journal.jsonl` in the evidence session: what the run is
//! (session, crash, target, strategy, budget, plan, app identity) on its first line, then
//! a line per round before its replays start (which attempts the scheduler handed out,
//! and after how many completions) and a line per finished attempt, appended and fsynced
//! as soon as the attempt's replay and screenshot are done, before its outcome reaches
//! the scheduler. A crash at any moment therefore loses at most the replays in flight;
//! `--resume` replays the recorded rounds and verdicts into a fresh engine (see
//! `resume`).
//!
//! Why a file of the run's own rather than the report server's `steps.jsonl`: the report
//! role may be any MCP server (a foreign one may not fsync, may reorder or reword notes),
//! while resuming needs exact, typed verdicts that are durable when the client moves on.
//! The report server still gets its step per attempt (the human-readable evidence).
//!
//! The file is untrusted on the way back in: only typed fields are read, an unfinished
//! last line (a write cut short by a full disk or a power loss) counts as never written
//! (when that was the first record, the run recorded nothing, and the error says so and
//! what to do: `JournalError::FirstRecordCut`), and anything else that does not parse
//! refuses the resume. Every line is sealed
//! (`journal_seal.rs`): a line edited, reordered, duplicated or taken from another run
//! refuses it too, naming the line.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use whittle_core::engine::{FailureCause, Phase};
use whittle_core::strategy::SearchStrategy;

use super::journal_seal::{seal, verify, SEAL_FIELD};
use crate::atomic::{append_durable, sync_dir};
use crate::evidence::ShotOmission;
use crate::replay::{ReplayVerdict, TargetIdentity};
use crate::result::ResumeMark;

pub const JOURNAL_FILE: &str = "journal.jsonl";
/// The journal layout this Whittle writes and reads.
/// 2: every line sealed (`journal_seal.rs`). 3: a round line before each round's
/// replays (streaming dispatch, issue 31). Journals of other formats are not resumed.
pub const JOURNAL_FORMAT: u32 = 3;
/// Far above a long run (about 2 KB per attempt); a larger file is not read.
const MAX_JOURNAL_BYTES: u64 = 64 * 1024 * 1024;

/// The first line: what must still hold for the run to be resumed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalHeader {
    pub format: u32,
    pub original_session: String,
    pub crash_id: String,
    pub target: TargetIdentity,
    pub strategy: SearchStrategy,
    pub max_replays: u32,
    /// Replays of the full path allowed until it reproduces (`--baseline-tries`; 1 in
    /// journals written before it existed, the seed's single try).
    #[serde(default = "one_baseline_try")]
    pub baseline_tries: u32,
    /// The replayable steps the engine started from.
    pub candidates: Vec<u32>,
    /// The run this one re-proves (its evidence session), whose minimal path
    /// `candidates` are taken from (`reproof.rs`); absent for an ordinary run, whose
    /// journal reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproves: Option<String>,
    /// The primary device, and how many devices the pool had.
    pub device: String,
    pub devices: u32,
    /// SHA-256 over the original session's meta, steps and crashes files.
    pub session_files: String,
    /// The tested app's installed version, as the device reported it.
    pub app_version: Option<String>,
    /// The Whittle that ran the engine.
    pub whittle_version: String,
    pub started_at: String,
}

fn one_baseline_try() -> u32 {
    1
}

/// One round: jobs the scheduler handed out at once, to the devices free at that moment.
/// Written before they start, so a resume knows every job that was given out, even one
/// whose device never reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalRound {
    /// 1, 2, … over the run (a resume goes on numbering).
    pub round: u32,
    /// How many outcomes the scheduler had been given when it handed these out
    /// (outcomes reach it in attempt order), so a resume dispatches at the same point.
    pub completed_before: u32,
    /// The attempt numbers of its jobs, in order.
    pub attempts: Vec<u32>,
}

/// A round or an attempt, as the journal holds them in order.
#[derive(Debug, Clone, PartialEq)]
pub enum JournalRecord {
    Round(JournalRound),
    Attempt(Box<JournalAttempt>),
}

/// One finished attempt: the job the scheduler gave out and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalAttempt {
    /// The scheduler round it was handed out in ([`JournalRound`]), and how many jobs
    /// that round had.
    pub round: u32,
    pub round_jobs: u32,
    pub attempt: u32,
    pub phase: Phase,
    pub candidate: Vec<u32>,
    pub speculative: bool,
    pub device: String,
    pub outcome: AttemptOutcome,
    pub duration_ms: u32,
    pub screenshot_src: Option<String>,
    pub screenshot_redacted: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "ShotOmission::read_compat"
    )]
    pub screenshot_omitted: Option<ShotOmission>,
    /// The screenshot is the frame before this step's action (the last one), kept
    /// because the frame after the replay could not be (evidence/before_frame.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot_before_step: Option<u32>,
    pub finished_at: String,
}

/// A replay's verdict, or why it has none (those attempts are run again on resume).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttemptOutcome {
    Replayed {
        verdict: ReplayVerdict,
    },
    Cancelled,
    /// A speculative replay stopped halfway because the search no longer needed it (the
    /// guess it rested on was wrong), so its device could take a job the search may
    /// use: not a verdict, and a resume runs it again only if it is needed after all.
    Unneeded,
    /// The infrastructure failed: no verdict (run again on resume).
    Failed {
        cause: FailureCause,
    },
}

impl AttemptOutcome {
    pub fn verdict(&self) -> Option<&ReplayVerdict> {
        match self {
            AttemptOutcome::Replayed { verdict } => Some(verdict),
            AttemptOutcome::Cancelled
            | AttemptOutcome::Unneeded
            | AttemptOutcome::Failed { .. } => None,
        }
    }
}

/// The tester ended an interrupted run without resuming it (the window's *Discard*).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscardMark {
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
enum Line {
    Run(JournalHeader),
    Round(JournalRound),
    Attempt(JournalAttempt),
    Resumed(ResumeMark),
    Discarded(DiscardMark),
}

impl Line {
    fn kind(&self) -> &'static str {
        match self {
            Line::Run(_) => "run",
            Line::Round(_) => "round",
            Line::Attempt(_) => "attempt",
            Line::Resumed(_) => "resumed",
            Line::Discarded(_) => "discarded",
        }
    }
}

/// Everything a journal holds, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalContents {
    pub header: JournalHeader,
    pub rounds: Vec<JournalRound>,
    pub attempts: Vec<JournalAttempt>,
    pub resumes: Vec<ResumeMark>,
    /// Set once the run was discarded: it is never resumed.
    pub discarded: Option<DiscardMark>,
    /// An unfinished last line was found (and is ignored).
    pub torn_tail: bool,
    /// The seal of the last readable line: the next line is sealed after it.
    pub last_seal: String,
}

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} does not exist: the run kept no journal (it was started by a Whittle without resume, or is not a minimize run)", path.display())]
    Missing { path: PathBuf },
    #[error("{} is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("{} is larger than {MAX_JOURNAL_BYTES} bytes", path.display())]
    TooLarge { path: PathBuf },
    #[error("{} line {line} is damaged: {problem}", path.display())]
    Damaged {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    #[error("{} was written in format {found}; this Whittle reads format {JOURNAL_FORMAT}", path.display())]
    Format { path: PathBuf, found: u32 },
    #[error("{} stopped accepting records after an earlier write failed", path.display())]
    Broken { path: PathBuf },
    #[error("{} line {line} was changed, moved, repeated or taken from another run (its seal does not match); the run cannot be resumed", path.display())]
    Tampered { path: PathBuf, line: usize },
    /// The run died while its journal's first record was written (an empty file, or
    /// line 1 cut off mid-write): it recorded no attempt, so there is nothing to resume.
    // Named first, as every journal refusal is (the fuzz target `journal` checks it).
    #[error("{}: its first record was cut off mid-write (line 1) when the run stopped, so the run recorded no attempt to go on from; discard it and minimize the crash again", path.display())]
    FirstRecordCut { path: PathBuf },
}

/// An open journal. Appends are whole lines made durable one by one; after a failed
/// append nothing more is written, so an unfinished line can only be the last one.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
    broken: AtomicBool,
    /// The seal of the last line written (the next is sealed after it).
    last_seal: Mutex<String>,
}

impl Journal {
    /// Starts the journal of a new run (the file must not exist yet).
    pub fn create(dir: &Path, header: &JournalHeader) -> Result<Journal, JournalError> {
        let path = dir.join(JOURNAL_FILE);
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&path)
            .map_err(io)?;
        let journal = Journal {
            file,
            path: path.clone(),
            broken: AtomicBool::new(false),
            last_seal: Mutex::new(String::new()),
        };
        journal.append(&Line::Run(header.clone()))?;
        sync_dir(dir).map_err(io)?;
        Ok(journal)
    }

    /// Opens an existing journal to continue it: reads it, cuts off an unfinished last
    /// line (so the next record starts on a line of its own) and returns what it holds.
    pub fn reopen(dir: &Path) -> Result<(Journal, JournalContents), JournalError> {
        let path = dir.join(JOURNAL_FILE);
        let (text, len) = read_text(&path)?;
        let (contents, valid) = parse(&path, &text)?;
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new().append(true).open(&path).map_err(io)?;
        if valid < len {
            file.set_len(valid).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        Ok((
            Journal {
                file,
                path,
                broken: AtomicBool::new(false),
                last_seal: Mutex::new(contents.last_seal.clone()),
            },
            contents,
        ))
    }

    pub fn record_round(&self, round: &JournalRound) -> Result<(), JournalError> {
        self.append(&Line::Round(round.clone()))
    }

    pub fn record_attempt(&self, attempt: &JournalAttempt) -> Result<(), JournalError> {
        self.append(&Line::Attempt(attempt.clone()))
    }

    pub fn record_resume(&self, mark: &ResumeMark) -> Result<(), JournalError> {
        self.append(&Line::Resumed(mark.clone()))
    }

    pub fn record_discard(&self, mark: &DiscardMark) -> Result<(), JournalError> {
        self.append(&Line::Discarded(mark.clone()))
    }

    fn append(&self, line: &Line) -> Result<(), JournalError> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(JournalError::Broken {
                path: self.path.clone(),
            });
        }
        // Timed apart from the replays (an fsync is a run's own cost on a fast device).
        let _span = tracing::debug_span!("journal_append", line = line.kind()).entered();
        // One line at a time: the seal chain is the order lines reach the file.
        let mut last = self.last_seal.lock().unwrap_or_else(|e| e.into_inner());
        let (bytes, sealed) = sealed_line(&last, line).map_err(|e| JournalError::Io {
            path: self.path.clone(),
            source: std::io::Error::other(e),
        })?;
        append_durable(&self.file, &bytes).map_err(|source| {
            self.broken.store(true, Ordering::SeqCst);
            JournalError::Io {
                path: self.path.clone(),
                source,
            }
        })?;
        *last = sealed;
        Ok(())
    }
}

/// `line` as the file holds it (sealed after `previous`, newline-ended), and its seal.
fn sealed_line(previous: &str, line: &Line) -> Result<(Vec<u8>, String), serde_json::Error> {
    let mut value = serde_json::to_value(line)?;
    let sealed = match value.as_object_mut() {
        Some(object) => {
            let sealed = seal(previous, object);
            object.insert(SEAL_FIELD.into(), sealed.clone().into());
            sealed
        }
        None => String::new(),
    };
    let mut bytes = serde_json::to_vec(&value)?;
    bytes.push(b'\n');
    Ok((bytes, sealed))
}

/// The bytes of a journal holding `header` and `records`, sealed as [`Journal`] writes
/// them (for tests that build journals without running).
pub fn sealed_journal(header: &JournalHeader, records: &[JournalRecord]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut previous = String::new();
    let lines =
        std::iter::once(Line::Run(header.clone())).chain(records.iter().map(
            |record| match record {
                JournalRecord::Round(round) => Line::Round(round.clone()),
                JournalRecord::Attempt(attempt) => Line::Attempt(attempt.as_ref().clone()),
            },
        ));
    for line in lines {
        if let Ok((bytes, sealed)) = sealed_line(&previous, &line) {
            out.extend(bytes);
            previous = sealed;
        }
    }
    out
}

/// Reads the journal of the evidence session in `dir` without changing it.
pub fn read_journal(dir: &Path) -> Result<JournalContents, JournalError> {
    let path = dir.join(JOURNAL_FILE);
    let (text, _) = read_text(&path)?;
    parse(&path, &text).map(|(contents, _)| contents)
}

/// Parses journal bytes (as [`read_journal`] does a file's).
pub fn parse_journal(bytes: &[u8]) -> Result<JournalContents, JournalError> {
    parse(Path::new(JOURNAL_FILE), bytes).map(|(contents, _)| contents)
}

/// Whether the evidence session in `dir` kept a journal (a run that can be resumed).
pub fn has_journal(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(JOURNAL_FILE)).is_ok_and(|m| m.file_type().is_file())
}

fn read_text(path: &Path) -> Result<(Vec<u8>, u64), JournalError> {
    let meta = std::fs::symlink_metadata(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            JournalError::Missing {
                path: path.to_path_buf(),
            }
        } else {
            JournalError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    // Evidence is untrusted: never follow a link out of the session.
    if !meta.file_type().is_file() {
        return Err(JournalError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > MAX_JOURNAL_BYTES {
        return Err(JournalError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(MAX_JOURNAL_BYTES).read_to_end(&mut bytes))
        .map_err(|source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    Ok((bytes, len))
}

/// The journal's records and the byte length of its readable part. The last line may be
/// unfinished or unreadable (a write cut short): it is left out. Any other line that does
/// not parse is damage, and refuses.
fn parse(path: &Path, text: &[u8]) -> Result<(JournalContents, u64), JournalError> {
    let damaged = |line: usize, problem: String| JournalError::Damaged {
        path: path.to_path_buf(),
        line,
        problem,
    };
    // Bytes, not text: a write cut short can end inside a UTF-8 sequence.
    let mut lines: Vec<(usize, &[u8], bool)> = Vec::new();
    let mut start = 0usize;
    for piece in text.split_inclusive(|&b| b == b'\n') {
        lines.push((start, piece, piece.ends_with(b"\n")));
        start += piece.len();
    }
    let mut header = None;
    let mut rounds = Vec::new();
    let mut attempts = Vec::new();
    let mut resumes = Vec::new();
    let mut discarded = None;
    let mut valid = 0usize;
    let mut torn_tail = false;
    let mut last_seal = String::new();
    let count = lines.len();
    for (at, (offset, piece, complete)) in lines.into_iter().enumerate() {
        let number = at + 1;
        let body = piece.strip_suffix(b"\n").unwrap_or(piece);
        if body.trim_ascii().is_empty() && complete {
            valid = offset + piece.len();
            continue;
        }
        let parsed = if complete {
            // Counted before parsing: the evidence is untrusted, every level costs stack.
            whittle_core::nesting::check_json_nesting(body)
                .map_err(|deep| {
                    format!(
                        "nests lists or objects deeper than {} levels at column {}",
                        deep.limit, deep.column
                    )
                })
                .and_then(|()| {
                    serde_json::from_slice::<serde_json::Value>(body).map_err(|e| e.to_string())
                })
        } else {
            Err("unfinished line".to_owned())
        };
        let parsed = match parsed {
            Ok(serde_json::Value::Object(mut object)) => {
                let claimed = object.remove(SEAL_FIELD);
                match claimed.as_ref().and_then(|c| c.as_str()) {
                    Some(claimed) if verify(&last_seal, &object, claimed) => {
                        last_seal = claimed.to_owned();
                        serde_json::from_value::<Line>(serde_json::Value::Object(object))
                            .map_err(|e| e.to_string())
                    }
                    // A header of an older format is told as that, not as tampering.
                    _ if number == 1 && old_format(&object) => {
                        return Err(JournalError::Format {
                            path: path.to_path_buf(),
                            found: object
                                .get("format")
                                .and_then(|f| f.as_u64())
                                .and_then(|f| u32::try_from(f).ok())
                                .unwrap_or(0),
                        });
                    }
                    _ => {
                        return Err(JournalError::Tampered {
                            path: path.to_path_buf(),
                            line: number,
                        })
                    }
                }
            }
            Ok(_) => Err("not a record".to_owned()),
            Err(e) => Err(e),
        };
        match parsed {
            Ok(line) => {
                match line {
                    Line::Run(h) if header.is_none() && number == 1 => {
                        if h.format != JOURNAL_FORMAT {
                            return Err(JournalError::Format {
                                path: path.to_path_buf(),
                                found: h.format,
                            });
                        }
                        header = Some(h);
                    }
                    Line::Run(_) => {
                        return Err(damaged(number, "a second run header".into()));
                    }
                    Line::Round(r) if header.is_some() => rounds.push(r),
                    Line::Attempt(a) if header.is_some() => attempts.push(a),
                    Line::Resumed(m) if header.is_some() => resumes.push(m),
                    Line::Discarded(m) if header.is_some() => discarded = Some(m),
                    Line::Round(_) | Line::Attempt(_) | Line::Resumed(_) | Line::Discarded(_) => {
                        return Err(damaged(number, "the run header is missing".into()));
                    }
                }
                valid = offset + piece.len();
            }
            Err(_) if at + 1 == count => torn_tail = true,
            Err(problem) => return Err(damaged(number, problem)),
        }
    }
    let header = header.ok_or_else(|| {
        // Nothing readable but a torn line (or nothing at all): the header's own write was
        // cut short, which only a crash at the run's start does.
        if torn_tail || text.is_empty() {
            JournalError::FirstRecordCut {
                path: path.to_path_buf(),
            }
        } else {
            damaged(1, "the run header is missing".into())
        }
    })?;
    Ok((
        JournalContents {
            header,
            rounds,
            attempts,
            resumes,
            discarded,
            torn_tail,
            last_seal,
        },
        u64::try_from(valid).unwrap_or(u64::MAX),
    ))
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;

/// A first line that is a run header of a format other than this Whittle's.
fn old_format(object: &serde_json::Map<String, serde_json::Value>) -> bool {
    object.get("record").and_then(|r| r.as_str()) == Some("run")
        && object.get("format").and_then(|f| f.as_u64()) != Some(u64::from(JOURNAL_FORMAT))
}
