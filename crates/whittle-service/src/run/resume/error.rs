//! Why a run cannot be resumed, each refusal naming the evidence session.

use whittle_core::run_end::RunEnd;
use whittle_core::session::ResolveError;

use super::super::journal::JournalError;
use super::super::lock::LockError;
use super::evidence_check::EvidenceDifference;
use super::mismatch::Differences;
use super::restore::RestoreError;

/// Why a run cannot be resumed. Nothing in its evidence was changed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("evidence session: {0}")]
    Resolve(#[from] ResolveError),
    #[error("{evidence} cannot be read: {detail}")]
    Unreadable { evidence: String, detail: String },
    #[error("{0}")]
    Journal(#[from] JournalError),
    #[error("{0}")]
    Lock(#[from] LockError),
    #[error("{evidence} already ended ({}); only an interrupted, failed or cancelled run can go on", ended_words(.end))]
    Finished {
        evidence: String,
        /// How it ended; `None` when it was discarded.
        end: Option<RunEnd>,
    },
    #[error("{evidence} cannot be resumed: {differences}")]
    Mismatch {
        evidence: String,
        differences: Differences,
    },
    #[error("{evidence} cannot be resumed: {source}")]
    Restore {
        evidence: String,
        #[source]
        source: RestoreError,
    },
    #[error("{evidence} cannot be resumed: the evidence's attempt {attempt} {}", match .difference {
        EvidenceDifference::NotInJournal => "is not in the run's journal",
        EvidenceDifference::Differs => "differs from the run's journal",
    })]
    EvidenceDiffers {
        evidence: String,
        attempt: u32,
        difference: EvidenceDifference,
    },
    #[error("{evidence} cannot be resumed: the crash no longer runs live ({reason})")]
    NoLongerLive { evidence: String, reason: String },
    /// A newer run of the same crash was approved since (`superseded.rs`): finishing
    /// this one could replace that result with an older run's.
    #[error("{evidence} is not resumed: {by}, a newer run of the same crash, was approved since; discard {evidence}, or minimize the crash again")]
    Superseded { evidence: String, by: String },
}

/// The words of [`ResumeError::Finished`]: the status as `--json` names it.
fn ended_words(end: &Option<RunEnd>) -> &'static str {
    end.as_ref().map_or("discarded", RunEnd::status)
}
