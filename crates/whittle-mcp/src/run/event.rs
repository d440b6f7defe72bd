use serde::Serialize;
use whittle_core::engine::{EngineSnapshot, Phase};
use whittle_core::plan::PlannedStep;

use super::RunSummary;

/// Progress of a live run, in order, for the CLI's progress line and the app's UI.
/// Never carries an input value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    Started {
        evidence_session: String,
        plan_steps: Vec<PlannedStep>,
        candidates: Vec<u32>,
        max_replays: u32,
        device: String,
    },
    AttemptStarted {
        attempt: u32,
        phase: Phase,
        candidate: Vec<u32>,
    },
    AttemptFinished {
        attempt: u32,
        phase: Phase,
        candidate: Vec<u32>,
        reproduced: bool,
        reason: Option<String>,
        signature: Option<String>,
        label: Option<String>,
        duration_ms: u32,
        /// The masked screenshot, relative to the evidence session folder
        /// (`screenshots/attempt-NNN.png`), when one was archived.
        screenshot: Option<String>,
        screenshot_redacted: bool,
        device: String,
    },
    Snapshot(EngineSnapshot),
    Warning {
        message: String,
    },
    Finished(RunSummary),
}
