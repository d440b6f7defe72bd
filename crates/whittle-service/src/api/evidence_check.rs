//! Whether a run read back from its evidence may be approved. A live run's approval
//! writes what the run left in memory, so a file rewritten meanwhile cannot change it. A
//! run read from its files (the window's reopened run, `whittle approve`) has only the
//! files, and may be approved all the same, because what approval writes is shown in
//! full first, and the evidence must hold together:
//! - the sidecar goes to the original session's folder resolved inside the workspace from
//!   the validated session id — never to a path read from the file;
//! - `result.json`, the evidence's `meta.json` and the session asked about name the same
//!   original session, crash and evidence session; the crash exists and its recorded
//!   path is the result's original path; the minimal path is a subsequence of it;
//! - the result says it may be written back (baseline reproduced, no capture or device
//!   failure), and a "high" claim is backed by its flags (fixed point, 3/3, no flakiness,
//!   budget not exhausted);
//! - `steps.jsonl` holds every attempt counted, starting with a reproducing baseline, and
//!   a final confirmation claim by 3 reproducing replays of the minimal path.
//!
//! Whoever can rewrite all of these can also write `crashes.minimized.json` directly, so
//! approving a consistent result grants nothing new; an inconsistent one is shown
//! read-only with what did not match (docs/SECURITY.md §12).

use std::collections::HashSet;
use std::path::Path;

use whittle_core::engine::{Phase, HIGH_CONFIDENCE_RUNS};
use whittle_core::model::Confidence;
use whittle_core::session::{load_session, resolve_session_dir, ResolveError, SessionError};

use super::approval::Approvable;
use crate::result::{PendingResult, RunEnd};
use crate::run::RecordedRun;

/// Why a run read from its files may not be approved.
#[derive(Debug, thiserror::Error)]
pub enum NotApprovable {
    /// Only a minimized run whose result may be written back is ever approved.
    #[error("the run did not end with a result that may be written back (it ended {})", .end.status())]
    Ended { end: RunEnd },
    #[error("its evidence does not hold together: {0}")]
    Inconsistent(#[from] Inconsistency),
}

/// What approving `result`, read from the evidence session `evidence_session` of
/// `session_id`, would write — the one decision the window's reopened run and
/// `whittle approve` share.
pub fn approvable_from_files(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    recorded: &RecordedRun,
    result: &PendingResult,
) -> Result<Approvable, NotApprovable> {
    let ended = || NotApprovable::Ended {
        end: result.end.clone(),
    };
    if !result.end.may_write_back() || !result.write_back_allowed {
        return Err(ended());
    }
    let pending = check_evidence(workspace, session_id, evidence_session, recorded, result)?;
    Approvable::stamp(pending).ok_or_else(ended)
}

/// What does not hold together in a run's evidence.
#[derive(Debug, thiserror::Error)]
pub enum Inconsistency {
    #[error("result.json names another evidence session")]
    OtherEvidenceSession,
    #[error("result.json names another original session")]
    OtherOriginalSession,
    #[error("meta.json and result.json name different crashes")]
    CrashesDiffer,
    #[error("the original session cannot be found: {0}")]
    OriginalNotFound(#[source] ResolveError),
    #[error("the original session cannot be read: {0}")]
    OriginalUnreadable(#[source] SessionError),
    #[error("the crash is not in the original session")]
    CrashMissing,
    #[error("the original path differs from the crash's recorded path")]
    OriginalPathDiffers,
    #[error("the minimal path is not part of the original path")]
    MinimalNotInOriginal,
    #[error("the result does not allow writing back")]
    WriteBackNotAllowed,
    #[error("“high” confidence is not backed by the result's own flags")]
    HighNotBacked,
    #[error("the evidence does not hold every attempt the result counts")]
    AttemptsMissing,
    #[error("the evidence has no reproducing baseline")]
    NoBaseline,
    #[error("the final confirmation is not in the evidence")]
    ConfirmationMissing,
}

/// The result, fit to be written back, or what does not hold together (see the module
/// documentation). The sidecar's folder is resolved here, not taken from the file.
pub fn check_evidence(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    recorded: &RecordedRun,
    result: &PendingResult,
) -> Result<PendingResult, Inconsistency> {
    let check = |ok: bool, what: Inconsistency| if ok { Ok(()) } else { Err(what) };
    check(
        result.evidence_session == evidence_session,
        Inconsistency::OtherEvidenceSession,
    )?;
    check(
        result.original_session == session_id,
        Inconsistency::OtherOriginalSession,
    )?;
    check(
        recorded
            .crash_id
            .as_deref()
            .is_none_or(|c| c == result.crash_id),
        Inconsistency::CrashesDiffer,
    )?;
    let original_dir =
        resolve_session_dir(workspace, session_id).map_err(Inconsistency::OriginalNotFound)?;
    let session = load_session(&original_dir).map_err(Inconsistency::OriginalUnreadable)?;
    let crash = session
        .crash(&result.crash_id)
        .ok_or(Inconsistency::CrashMissing)?;
    check(
        crash.repro_path == result.original_path,
        Inconsistency::OriginalPathDiffers,
    )?;
    check(
        !result.minimal_path.is_empty()
            && is_subsequence(&result.minimal_path, &result.original_path),
        Inconsistency::MinimalNotInOriginal,
    )?;
    check(
        result.write_back_allowed
            && result.rating.confidence.is_some()
            && result.end.may_write_back(),
        Inconsistency::WriteBackNotAllowed,
    )?;
    if result.rating.confidence == Some(Confidence::High) {
        let search = &result.search;
        check(
            result.converged
                && result.rating.complete
                && search.fixed_point_reached
                && search.final_confirmed
                && !search.flaky_observed
                && !search.budget_exhausted,
            Inconsistency::HighNotBacked,
        )?;
    }
    check(
        u32::try_from(recorded.attempts.len()).ok() == Some(result.attempts),
        Inconsistency::AttemptsMissing,
    )?;
    let base = recorded
        .attempts
        .first()
        .filter(|a| a.phase == Phase::Baseline && a.verdict.reproduced())
        .ok_or(Inconsistency::NoBaseline)?;
    if result.search.final_confirmed {
        let replayable: HashSet<u32> = base.candidate.iter().copied().collect();
        let kept: Vec<u32> = result
            .minimal_path
            .iter()
            .copied()
            .filter(|i| replayable.contains(i))
            .collect();
        // The search's own hits of the final path count towards the 3 (as in the engine).
        let hits = recorded
            .attempts
            .iter()
            .filter(|a| a.verdict.reproduced() && a.candidate == kept)
            .count();
        check(
            hits >= HIGH_CONFIDENCE_RUNS,
            Inconsistency::ConfirmationMissing,
        )?;
    }
    Ok(PendingResult {
        original_session_dir: original_dir.display().to_string(),
        ..result.clone()
    })
}

fn is_subsequence(short: &[u32], long: &[u32]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|s| rest.any(|l| l == s))
}
