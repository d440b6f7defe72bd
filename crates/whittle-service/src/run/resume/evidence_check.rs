//! The evidence against the journal: the two durable records of an attempt share one
//! schema (an evidence step's notes are the journal record), so before a run goes on
//! every attempt the evidence recorded must be one the sealed journal holds, field for
//! field. A difference means one of them was edited; the resume refuses, naming the
//! attempt, rather than continue from verdicts nobody can vouch for.

use std::path::Path;

use super::super::journal::JournalAttempt;
use super::super::recorded::evidence_records;

/// How the evidence's record of an attempt disagrees with the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceDifference {
    /// The evidence has an attempt the journal never recorded.
    NotInJournal,
    /// The journal recorded the attempt differently.
    Differs,
}

/// The first attempt whose evidence record the journal does not hold as it is.
pub(super) fn first_difference(
    dir: &Path,
    journal: &[JournalAttempt],
) -> Option<(u32, EvidenceDifference)> {
    evidence_records(dir).into_iter().find_map(|record| {
        difference_of(&record, journal).map(|difference| (record.attempt, difference))
    })
}

/// How the journal disagrees with the evidence's `record` of an attempt, if it does (an
/// approval asks this of every step, as a resume does).
pub(crate) fn difference_of(
    record: &JournalAttempt,
    journal: &[JournalAttempt],
) -> Option<EvidenceDifference> {
    let journaled: Vec<&JournalAttempt> = journal
        .iter()
        .filter(|j| j.attempt == record.attempt)
        .collect();
    if journaled.contains(&record) {
        None
    } else if journaled.is_empty() {
        Some(EvidenceDifference::NotInJournal)
    } else {
        Some(EvidenceDifference::Differs)
    }
}
