//! What a running minimize sends the window, over the channel `start_run` was given.

use serde::Serialize;
use whittle_mcp::run::{PendingResult, RunEvent, RunSummary};

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
}
