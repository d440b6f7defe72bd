use serde::Serialize;
use whittle_core::engine::{EngineSnapshot, Phase};
use whittle_core::plan::PlannedStep;

use super::{RecordedAttempt, RunNotice, RunSummary};

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
        /// The primary device.
        device: String,
        /// Every device that replays (the primary first).
        devices: Vec<String>,
    },
    AttemptStarted {
        attempt: u32,
        phase: Phase,
        candidate: Vec<u32>,
    },
    /// A finished attempt, as a reopened run shows it too.
    AttemptFinished(RecordedAttempt),
    Snapshot(EngineSnapshot),
    /// Free text (from code that has no typed notice).
    Warning {
        message: String,
    },
    /// A typed warning the window words in its own language.
    Notice {
        notice: RunNotice,
    },
    Finished(RunSummary),
}
