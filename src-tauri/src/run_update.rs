//! What a running minimize sends the window, over the channel `start_run` was given.

use serde::Serialize;
use whittle_service::api::RunEvent;
use whittle_service::api::{LiveFrame, RunResultView};

use crate::error::ErrorPayload;

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunUpdate {
    /// One event of the run, in order.
    Event { run_id: u32, event: RunEvent },
    /// A live look at a device during a replay (never saved).
    Frame { run_id: u32, frame: LiveFrame },
    /// The run is over: `result` when it produced one, else `error` says why it did not.
    Ended {
        run_id: u32,
        result: Option<Box<RunResultView>>,
        error: Option<ErrorPayload>,
    },
}
