//! The run that re-proves another run here ([`NextStep::Reprove`]): a run made
//! elsewhere — a CI runner's, a colleague's — cannot be approved as it is, because
//! nothing on this machine proves its evidence; its minimal path is where a new run of
//! the same crash starts (`run/reproof.rs`). Only three facts are taken from the other
//! run's files, all untrusted and all checked here against this workspace before
//! anything replays: the original session (it must be in this workspace), the crash (it
//! must be in that session) and the minimal path (it must be a part of that crash's
//! recorded path). Everything the new run claims, it observes itself.
//!
//! [`NextStep::Reprove`]: super::NextStep::Reprove

use std::path::Path;

use serde::Serialize;

use whittle_core::plan::{build_plan, PlanError, StartPathError};
use whittle_core::session::{load_session, resolve_session_dir};

use super::session_error::{found_dir, read_run, SessionReadError, UnreadableEvidence};
use crate::run::{lock_is_held, Reproof, RunSpec};

/// Why a run cannot be re-proven here.
#[derive(Debug, thiserror::Error)]
pub enum ReproofRefusal {
    #[error(transparent)]
    Evidence(#[from] SessionReadError),
    #[error(transparent)]
    Unreadable(#[from] UnreadableEvidence),
    #[error("evidence session {evidence} is not a minimize run")]
    NotARun { evidence: String },
    #[error("the run of {evidence} is still going on; re-prove it once it ended")]
    Running { evidence: String },
    #[error("evidence session {evidence} has no result: {detail}")]
    NoResult { evidence: String, detail: String },
    /// The run found no reproducing path (it did not reproduce, failed, or was cancelled
    /// before its baseline): there is nothing to start from.
    #[error("the run of {evidence} found no reproducing path to re-prove (it ended {status})")]
    NoPath { evidence: String, status: String },
    /// The crash's session is not in this workspace (copy it in beside the evidence).
    #[error("the run of {evidence} minimized session {session}, which is not in this workspace: {source}")]
    SessionMissing {
        evidence: String,
        session: String,
        /// Boxed: the session's error is large, and this one travels in a `Result`.
        #[source]
        source: Box<SessionReadError>,
    },
    #[error(
        "the run of {evidence} minimized crash {crash_id}, which session {session} does not have"
    )]
    CrashMissing {
        evidence: String,
        session: String,
        crash_id: String,
    },
    #[error(
        "the minimal path of {evidence} is not part of crash {crash_id}'s recorded path: {source}"
    )]
    PathNotOnCrash {
        evidence: String,
        crash_id: String,
        #[source]
        source: StartPathError,
    },
    #[error("crash {crash_id}'s replay plan cannot be built: {source}")]
    Plan {
        crash_id: String,
        #[source]
        source: PlanError,
    },
}

/// What a re-proof refusal is about, for a front end to switch on and word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReproofProblem {
    EvidenceNotFound,
    EvidenceUnreadable,
    NotARun,
    Running,
    NoResult,
    NoPath,
    SessionMissing,
    CrashMissing,
    PathNotOnCrash,
    PlanUnavailable,
}

impl ReproofRefusal {
    pub fn problem(&self) -> ReproofProblem {
        match self {
            ReproofRefusal::Evidence(_) => ReproofProblem::EvidenceNotFound,
            ReproofRefusal::Unreadable(_) => ReproofProblem::EvidenceUnreadable,
            ReproofRefusal::NotARun { .. } => ReproofProblem::NotARun,
            ReproofRefusal::Running { .. } => ReproofProblem::Running,
            ReproofRefusal::NoResult { .. } => ReproofProblem::NoResult,
            ReproofRefusal::NoPath { .. } => ReproofProblem::NoPath,
            ReproofRefusal::SessionMissing { .. } => ReproofProblem::SessionMissing,
            ReproofRefusal::CrashMissing { .. } => ReproofProblem::CrashMissing,
            ReproofRefusal::PathNotOnCrash { .. } => ReproofProblem::PathNotOnCrash,
            ReproofRefusal::Plan { .. } => ReproofProblem::PlanUnavailable,
        }
    }
}

/// The run that re-proves the run of `evidence_session` (an id, or its folder inside
/// `workspace`), with the options of `options` (budget, devices, strategy… as the front
/// end asked them); its session, crash and starting path are the other run's, checked
/// here.
pub fn reproof_spec(
    workspace: &Path,
    evidence_session: &str,
    options: RunSpec,
) -> Result<RunSpec, ReproofRefusal> {
    let dir = found_dir(workspace, evidence_session)?;
    let evidence = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(evidence_session)
        .to_owned();
    if lock_is_held(&dir) {
        return Err(ReproofRefusal::Running { evidence });
    }
    let recorded = read_run(&dir, &evidence)?;
    if recorded.original_session.is_none() {
        return Err(ReproofRefusal::NotARun { evidence });
    }
    let result = recorded
        .result
        .as_ref()
        .map_err(|why| ReproofRefusal::NoResult {
            evidence: evidence.clone(),
            detail: why.to_string(),
        })?;
    // A reproducing path: proven or not (a medium run re-proven here may prove it).
    if result.rating.confidence.is_none() || result.minimal_path.is_empty() {
        return Err(ReproofRefusal::NoPath {
            evidence,
            status: result.end.status().to_owned(),
        });
    }
    let session_id = result.original_session.clone();
    let session_dir = resolve_session_dir(workspace, &session_id).map_err(|source| {
        ReproofRefusal::SessionMissing {
            evidence: evidence.clone(),
            session: session_id.clone(),
            source: Box::new(SessionReadError::NotFound {
                id: session_id.clone(),
                source,
            }),
        }
    })?;
    let session = load_session(&session_dir).map_err(|source| ReproofRefusal::SessionMissing {
        evidence: evidence.clone(),
        session: session_id.clone(),
        source: Box::new(SessionReadError::Unreadable {
            id: session_id.clone(),
            source,
        }),
    })?;
    let crash = session
        .crash(&result.crash_id)
        .ok_or_else(|| ReproofRefusal::CrashMissing {
            evidence: evidence.clone(),
            session: session_id.clone(),
            crash_id: result.crash_id.clone(),
        })?;
    let plan =
        build_plan(&session.steps, &crash.repro_path).map_err(|source| ReproofRefusal::Plan {
            crash_id: crash.crash_id.clone(),
            source,
        })?;
    plan.starting_from(&result.minimal_path)
        .map_err(|source| ReproofRefusal::PathNotOnCrash {
            evidence: evidence.clone(),
            crash_id: crash.crash_id.clone(),
            source,
        })?;
    Ok(RunSpec {
        session: session_id,
        crash: Some(crash.crash_id.clone()),
        reprove: Some(Reproof {
            evidence_session: evidence,
            path: result.minimal_path.clone(),
        }),
        ..options
    })
}
