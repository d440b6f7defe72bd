//! What a running minimize sends the window, over the channel `start_run` was given.

use serde::Serialize;
use whittle_service::run::{PendingResult, RunEvent, RunSummary};

use crate::error::ErrorPayload;

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunUpdate {
    /// One event of the run, in order.
    Event { run_id: u32, event: RunEvent },
    /// The run is over: `result` when it produced one, else `error` says why it did not.
    Ended {
        run_id: u32,
        result: Option<Box<RunResultView>>,
        error: Option<ErrorPayload>,
    },
}

/// A finished run as the result screen shows it.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RunResultView {
    pub summary: RunSummary,
    /// The Phase-5 text, as in the report.
    pub report: String,
    /// Present only when the result may be written back.
    pub pending: Option<PendingResult>,
    /// The entry approval will write, as JSON text (its `approved_at` is the moment
    /// of approval).
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
}

/// Why a reopened run's result cannot be approved from the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ApproveBlock {
    /// Its evidence does not hold together (see `reopen::validate`), so the window
    /// will not write it back; the detail says what did not match.
    Inconsistent { detail: String },
}
