//! A finished run as a result screen shows it, built by one builder whether the run was
//! watched live or reopened from its evidence: the facts differ in where they come from
//! (the run's outcome, or its files), never in how they become the view.

use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_text::Locale;

use super::approval::Approvable;
use super::next_step::{NextStep, NotProvenHere};
use crate::result::{PendingResult, ResultPurpose, RunSummary};
use crate::run::{localized_report, RunHint, RunOutcome};

/// A finished run as the result screen shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunResultView {
    pub summary: RunSummary,
    /// A minimize run's result, or a recording's: the window words a recording as what it
    /// recorded and never offers to approve it.
    pub purpose: ResultPurpose,
    /// The Phase-5 text, as in the report.
    pub report: String,
    /// Present only when the result may be written back.
    pub pending: Option<PendingResult>,
    /// The entry approval will write, as JSON text: exactly the entry written, its
    /// `approved_at` included.
    pub sidecar_preview: Option<String>,
    pub evidence_dir: Option<String>,
    /// Where an export goes unless the user picks another folder.
    pub default_export_folder: String,
    /// The evidence holds a live result (a reproducing path, proven or not) that a
    /// bug-ticket bundle can be made of — also for a cancelled run.
    pub exportable: bool,
    /// Why approval is not offered although the run may have a result, if so.
    pub approve_blocked: Option<ApproveBlock>,
    /// The session's sidecar already names this run (approved earlier).
    pub approved: bool,
    /// The capture or device failure that ended the run, as the run worded it.
    pub failure: Option<String>,
    /// Read back from the evidence on disk, not watched live.
    pub reopened: bool,
    /// What to try next when the run ended without a result a change of options may
    /// give (`api::run_hint`, decided where the run ended): the banner words it.
    pub hint: Option<RunHint>,
}

/// Why a reopened run's result cannot be approved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ApproveBlock {
    /// Its evidence does not hold together (see `api::evidence_check`), so it will not
    /// be written back; the detail says what did not match.
    Inconsistent { detail: String },
    /// Nothing on this machine proves it (a run made elsewhere, or one without a
    /// journal): it is not written back as it is; `next` re-proves it here.
    NotProvenHere { why: NotProvenHere, next: NextStep },
}

/// What a result view is built from.
#[derive(Debug, Clone)]
pub struct ResultFacts {
    pub summary: RunSummary,
    pub purpose: ResultPurpose,
    pub report: String,
    pub evidence_dir: Option<PathBuf>,
    /// What approval would write, when the result may be written back.
    pub approvable: Option<Approvable>,
    pub approve_blocked: Option<ApproveBlock>,
    pub approved: bool,
    pub failure: Option<String>,
    pub reopened: bool,
    pub hint: Option<RunHint>,
}

impl ResultFacts {
    /// A run that just ended, its report worded in `locale`; its result, when it may be
    /// written back, is stamped for approval now.
    pub fn live(outcome: &RunOutcome, locale: Locale) -> ResultFacts {
        ResultFacts {
            summary: outcome.summary.clone(),
            purpose: ResultPurpose::Minimize,
            report: localized_report(outcome, locale),
            evidence_dir: outcome.evidence_dir.clone(),
            approvable: Approvable::of_outcome(outcome),
            approve_blocked: None,
            approved: false,
            failure: outcome
                .summary
                .end
                .failure()
                .map(whittle_text::failure_text),
            reopened: false,
            hint: outcome.hint,
        }
    }
}

/// The view of `facts`, for a run of `workspace`.
pub fn result_view(workspace: &Path, facts: &ResultFacts) -> RunResultView {
    RunResultView {
        summary: facts.summary.clone(),
        purpose: facts.purpose,
        report: facts.report.clone(),
        pending: facts.approvable.as_ref().map(|a| a.pending.clone()),
        sidecar_preview: facts.approvable.as_ref().map(Approvable::text),
        evidence_dir: facts.evidence_dir.as_ref().map(|d| d.display().to_string()),
        default_export_folder: default_export_folder(workspace).display().to_string(),
        exportable: facts.summary.rating.confidence.is_some() && facts.evidence_dir.is_some(),
        approve_blocked: facts.approve_blocked.clone(),
        approved: facts.approved,
        failure: facts.failure.clone(),
        reopened: facts.reopened,
        hint: facts.hint,
    }
}

/// The folder exports go to by default.
pub fn default_export_folder(workspace: &Path) -> PathBuf {
    workspace.join("exports")
}
