//! A finished run as its sealed journal proves it, for an approval read from files
//! (`whittle approve`, the window's reopened run). `result.json` and `steps.jsonl` are
//! the run's human-readable evidence and anyone with write access to the folder can
//! rewrite them; the journal is the one record that cannot be forged without this
//! installation's key (`journal_seal.rs`). So an approval reads the journal the way a
//! resume does — the same reader, which checks every line's seal and names the first
//! that does not match — checks every evidence step against it, line by line, and
//! replays its recorded rounds and verdicts into a fresh engine (the resume's
//! `restore`): the search result that engine reaches is what the run concluded, and
//! `result.json` must say exactly that (the application API compares them).
//!
//! A run without a journal (made by a Whittle before journals, or with the file
//! removed) proves nothing and is refused: removing the journal must never be a way
//! around its seal. A journal whose first line this installation's key does not seal
//! was sealed by another installation (a colleague's run, a CI artifact) — or rewritten
//! from its top, which cannot be told apart here: either way nothing here proves it, and
//! it is refused as such ([`SealedRunError::NotSealedHere`]), not as tampering; the way
//! forward is to re-prove it here (`reproof.rs`). A line after the first that breaks the
//! chain is tampering with a run sealed here.

use std::collections::BTreeSet;
use std::path::Path;

use whittle_core::engine::SearchResult;
use whittle_core::strategy::SearchOptions;

use super::journal::{read_journal, JournalContents, JournalError, JournalHeader};
use super::recorded::{evidence_lines, RecordedRunError};
use super::resume::{difference_of, restore, EvidenceDifference, RestoreError};

/// What the sealed journal of a finished run proves.
#[derive(Debug, Clone)]
pub struct SealedRun {
    /// The run's first line: session, crash, target, strategy, budget, plan, start.
    pub header: JournalHeader,
    /// The search result the recorded verdicts lead the engine to.
    pub search: SearchResult,
    /// The attempts whose verdicts that search used, in attempt order: on several
    /// devices the journal also holds guesses run ahead and not needed, and after a
    /// resume an attempt may be recorded twice (cut off, then run again), so the
    /// evidence's attempts are not the search's one for one.
    pub consumed: BTreeSet<u32>,
}

/// How a step of `steps.jsonl` disagrees with the sealed journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepChange {
    /// Its notes are not an attempt record at all.
    NotARecord,
    /// It records an attempt the journal never recorded.
    NotInJournal,
    /// The journal recorded its attempt differently.
    Differs,
}

/// Why a finished run's journal does not prove its evidence.
#[derive(Debug, thiserror::Error)]
pub enum SealedRunError {
    #[error("journal.jsonl is missing: nothing proves what this run observed (a Whittle before journals made it, or the file was removed)")]
    NoJournal,
    /// Line 1 does not match this installation's seal: another installation sealed the
    /// journal, or it was rewritten from its first line.
    #[error("journal.jsonl was not sealed by this Whittle installation: the run was made elsewhere (a CI runner, another machine or user), or its journal was rewritten from the first line")]
    NotSealedHere,
    #[error("journal.jsonl line {line} does not match its seal: it was changed, moved, repeated or taken from another run")]
    JournalLineChanged { line: usize },
    /// Damaged, of another format, too large, unreadable: the journal's own words
    /// (they name the file, and the line where there is one).
    #[error(transparent)]
    Journal(JournalError),
    #[error("steps.jsonl cannot be read: {0}")]
    Steps(#[source] RecordedRunError),
    #[error("steps.jsonl line {line}{} {}", .attempt.map(|a| format!(" (attempt {a})")).unwrap_or_default(), match .change {
        StepChange::NotARecord => "is not an attempt the run's journal recorded",
        StepChange::NotInJournal => "records an attempt that is not in the run's journal",
        StepChange::Differs => "differs from the run's journal",
    })]
    StepChanged {
        line: usize,
        attempt: Option<u32>,
        change: StepChange,
    },
    #[error("journal.jsonl does not replay on this Whittle: {0}")]
    Restore(#[source] RestoreError),
    #[error("journal.jsonl does not replay on this Whittle: {0}")]
    Engine(String),
    #[error("journal.jsonl does not record the end of the run")]
    Unfinished,
}

impl From<JournalError> for SealedRunError {
    fn from(error: JournalError) -> SealedRunError {
        match error {
            JournalError::Missing { .. } => SealedRunError::NoJournal,
            JournalError::Tampered { line: 1, .. } => SealedRunError::NotSealedHere,
            JournalError::Tampered { line, .. } => SealedRunError::JournalLineChanged { line },
            other => SealedRunError::Journal(other),
        }
    }
}

/// Reads the run of the evidence session in `dir` from its sealed journal, checks each
/// of its evidence steps against it, and replays it to its end.
pub fn read_sealed_run(dir: &Path) -> Result<SealedRun, SealedRunError> {
    let contents = read_sealed_evidence(dir)?;
    replay_sealed(contents)
}

/// The sealed journal of the evidence session in `dir`, every line's seal checked, and
/// every step of its `steps.jsonl` checked against it — what a run that stopped before
/// its end (cancelled, failed) can be checked for too.
pub fn read_sealed_evidence(dir: &Path) -> Result<JournalContents, SealedRunError> {
    let contents = read_journal(dir)?;
    for step in evidence_lines(dir).map_err(SealedRunError::Steps)? {
        let change = match &step.record {
            None => Some(StepChange::NotARecord),
            Some(record) => {
                difference_of(record, &contents.attempts).map(|difference| match difference {
                    EvidenceDifference::NotInJournal => StepChange::NotInJournal,
                    EvidenceDifference::Differs => StepChange::Differs,
                })
            }
        };
        if let Some(change) = change {
            return Err(SealedRunError::StepChanged {
                line: step.line,
                attempt: step.record.map(|r| r.attempt),
                change,
            });
        }
    }
    Ok(contents)
}

/// The search result the journal's recorded rounds and verdicts lead a fresh engine to
/// (the resume's `restore`), once they lead it to its end.
pub fn replay_sealed(contents: JournalContents) -> Result<SealedRun, SealedRunError> {
    let header = contents.header;
    let reducer = header
        .strategy
        .reducer_with(
            header.candidates.clone(),
            header.max_replays,
            SearchOptions {
                baseline_tries: header.baseline_tries,
            },
        )
        .map_err(|e| SealedRunError::Engine(e.to_string()))?;
    let mut restored =
        restore(reducer, &contents.rounds, &contents.attempts).map_err(SealedRunError::Restore)?;
    let search = restored
        .scheduler
        .is_done()
        .ok_or(SealedRunError::Unfinished)?;
    let consumed = restored
        .log
        .iter()
        .filter(|replay| replay.consumed)
        .map(|replay| replay.attempt)
        .collect();
    Ok(SealedRun {
        header,
        search,
        consumed,
    })
}
