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
//! - `steps.jsonl` holds every attempt the search used (the journal's replay says which:
//!   on several devices it also holds guesses run ahead and not needed, and after a
//!   resume an attempt cut off and run again), among them a reproducing baseline, and a
//!   final confirmation claim by 3 reproducing replays of the minimal path;
//! - and first of all, the run's sealed `journal.jsonl` proves it: every line's seal
//!   holds, every step of `steps.jsonl` is an attempt the journal recorded as it is, and
//!   every field of `result.json` the journal decides is what replaying the journal
//!   gives (`run::read_sealed_run`, `result_against_journal.rs`). Each refusal names
//!   the file and the line that was changed.
//!
//! Consistency alone would grant nothing new to whoever can rewrite every one of these
//! files; the seal is what they cannot rewrite without this installation's key, and
//! evidence folders travel (a colleague's run, a CI artifact). An inconsistent run is
//! shown read-only with what did not match; a run nothing here proves (sealed by another
//! installation, or without a journal) is refused with the way forward, re-proving it
//! here ([`NotApprovable::NotProvenHere`], docs/SECURITY.md §12).

use std::collections::HashSet;
use std::path::Path;

use whittle_core::engine::{Phase, HIGH_CONFIDENCE_RUNS};
use whittle_core::model::Confidence;
use whittle_core::plan::{build_plan, PlanError};
use whittle_core::session::{load_session, resolve_session_dir, ResolveError, SessionError};

use super::approval::Approvable;
use super::next_step::{NextStep, NotProvenHere};
use super::result_against_journal::{result_against_journal, result_line, ChangedResult};
use crate::result::{PendingResult, RunEnd};
use crate::run::{read_sealed_run, RecordedAttempt, RecordedRun, SealedRunError};

/// Why a run read from its files may not be approved.
#[derive(Debug, thiserror::Error)]
pub enum NotApprovable {
    /// Only a minimized run whose result may be written back is ever approved.
    #[error("the run did not end with a result that may be written back (it ended {})", .end.status())]
    Ended { end: RunEnd },
    /// Nothing here proves what the run observed: it is not approved as it is, but
    /// may be re-proven here (`next`).
    #[error("nothing on this machine proves it: {why}; re-prove it on a device here, then approve that run")]
    NotProvenHere { why: NotProvenHere, next: NextStep },
    #[error("its evidence does not hold together: {0}")]
    Inconsistent(#[from] Inconsistency),
}

impl NotApprovable {
    pub fn code(&self) -> &'static str {
        match self {
            NotApprovable::Ended { .. } => "not_written_back",
            NotApprovable::NotProvenHere { .. } => "not_proven_here",
            NotApprovable::Inconsistent(_) => "inconsistent",
        }
    }

    /// The way forward, when there is one.
    pub fn next(&self) -> Option<&NextStep> {
        match self {
            NotApprovable::NotProvenHere { next, .. } => Some(next),
            NotApprovable::Ended { .. } | NotApprovable::Inconsistent(_) => None,
        }
    }

    /// `inconsistency` of the run of `evidence_session`, told apart from a run that
    /// nothing here proves (sealed elsewhere, or without a journal).
    fn of(inconsistency: Inconsistency, evidence_session: &str) -> NotApprovable {
        let why = match &inconsistency {
            Inconsistency::Sealed(SealedRunError::NotSealedHere) => NotProvenHere::SealedElsewhere,
            Inconsistency::Sealed(SealedRunError::NoJournal) => NotProvenHere::NoJournal,
            _ => return NotApprovable::Inconsistent(inconsistency),
        };
        NotApprovable::NotProvenHere {
            why,
            next: NextStep::Reprove {
                evidence_session: evidence_session.to_owned(),
            },
        }
    }
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
    let (pending, started_at) =
        check_evidence(workspace, session_id, evidence_session, recorded, result)
            .map_err(|e| NotApprovable::of(e, evidence_session))?;
    let mut approvable = Approvable::stamp(pending).ok_or_else(ended)?;
    approvable.run_started_at = Some(started_at);
    Ok(approvable)
}

/// What does not hold together in a run's evidence.
#[derive(Debug, thiserror::Error)]
pub enum Inconsistency {
    #[error("the evidence session cannot be found: {0}")]
    EvidenceNotFound(#[source] ResolveError),
    /// The journal's seal, or a step of `steps.jsonl` against it (naming file and line).
    #[error(transparent)]
    Sealed(#[from] SealedRunError),
    /// A field of `result.json` against the journal (naming its line).
    #[error(transparent)]
    ResultChanged(#[from] ChangedResult),
    #[error("the original session's replayable steps changed since the run: {recorded:?} then, {now:?} now")]
    SessionChanged { recorded: Vec<u32>, now: Vec<u32> },
    #[error("the crash's replay plan cannot be built: {0}")]
    PlanUnavailable(#[source] PlanError),
    #[error("result.json{} names another evidence session", .line.map(|l| format!(" line {l}")).unwrap_or_default())]
    OtherEvidenceSession { line: Option<usize> },
    #[error("the run is of another original session")]
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

/// The result, fit to be written back, and when its run started (as its sealed journal
/// says); or what does not hold together (see the module documentation). The sidecar's
/// folder is resolved here, not taken from the file.
pub fn check_evidence(
    workspace: &Path,
    session_id: &str,
    evidence_session: &str,
    recorded: &RecordedRun,
    result: &PendingResult,
) -> Result<(PendingResult, String), Inconsistency> {
    let check = |ok: bool, what: Inconsistency| if ok { Ok(()) } else { Err(what) };
    let evidence_dir = resolve_session_dir(workspace, evidence_session)
        .map_err(Inconsistency::EvidenceNotFound)?;
    // The journal first: a changed file is refused naming where it was changed, before
    // any check that could only say that something somewhere does not match.
    let sealed = read_sealed_run(&evidence_dir)?;
    check(
        sealed.header.original_session == session_id,
        Inconsistency::OtherOriginalSession,
    )?;
    let original_dir =
        resolve_session_dir(workspace, session_id).map_err(Inconsistency::OriginalNotFound)?;
    let session = load_session(&original_dir).map_err(Inconsistency::OriginalUnreadable)?;
    let crash = session
        .crash(&sealed.header.crash_id)
        .ok_or(Inconsistency::CrashMissing)?;
    let plan =
        build_plan(&session.steps, &crash.repro_path).map_err(Inconsistency::PlanUnavailable)?;
    // A re-proof started from another run's minimal path: the candidates it journaled
    // must still be replayable steps of the crash's path, and no more.
    let plan = match &sealed.header.reproves {
        Some(_) => {
            let whole = plan.candidate_ids();
            plan.starting_from(&sealed.header.candidates).map_err(|_| {
                Inconsistency::SessionChanged {
                    recorded: sealed.header.candidates.clone(),
                    now: whole,
                }
            })?
        }
        None => plan,
    };
    let now = plan.candidate_ids();
    if now != sealed.header.candidates {
        return Err(Inconsistency::SessionChanged {
            recorded: sealed.header.candidates.clone(),
            now,
        });
    }
    result_against_journal(&evidence_dir, result, &sealed, &plan)?;
    check(
        result.evidence_session == evidence_session,
        Inconsistency::OtherEvidenceSession {
            line: result_line(&evidence_dir, "evidence_session"),
        },
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
    // The attempts the search used, each as `steps.jsonl` recorded it with a verdict:
    // guesses run ahead and not needed, and attempts cut off and run again after a
    // resume, are in the evidence too, and count for nothing here.
    let used: Vec<&RecordedAttempt> = sealed
        .consumed
        .iter()
        .map(|&number| {
            recorded
                .attempts
                .iter()
                .rev()
                .find(|a| a.attempt == number && a.verdict.is_verdict())
        })
        .collect::<Option<_>>()
        .ok_or(Inconsistency::AttemptsMissing)?;
    check(
        u32::try_from(used.len()).ok() == Some(result.attempts),
        Inconsistency::AttemptsMissing,
    )?;
    let base = used
        .iter()
        .find(|a| a.phase == Phase::Baseline && a.verdict.reproduced())
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
        let hits = used
            .iter()
            .filter(|a| a.verdict.reproduced() && a.candidate == kept)
            .count();
        check(
            hits >= HIGH_CONFIDENCE_RUNS,
            Inconsistency::ConfirmationMissing,
        )?;
    }
    let pending = PendingResult {
        original_session_dir: original_dir.display().to_string(),
        ..result.clone()
    };
    Ok((pending, sealed.header.started_at))
}

fn is_subsequence(short: &[u32], long: &[u32]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|s| rest.any(|l| l == s))
}
