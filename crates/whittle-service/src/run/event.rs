use serde::Serialize;
use whittle_core::engine::{EngineSnapshot, Phase};
use whittle_core::plan::PlannedStep;

use super::{RunNotice, RunSummary};
use crate::replay::{MissReason, ObservedCrash};

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
    AttemptFinished {
        attempt: u32,
        phase: Phase,
        candidate: Vec<u32>,
        reproduced: bool,
        reason: Option<AttemptReason>,
        /// The step at which the actions stopped, when one failed.
        step: Option<u32>,
        signature: Option<String>,
        label: Option<String>,
        /// Every crash the drain saw, compared against the target.
        observed: Vec<ObservedCrash>,
        duration_ms: u32,
        /// The masked screenshot, relative to the evidence session folder
        /// (`screenshots/attempt-NNN.png`), when one was archived.
        screenshot: Option<String>,
        screenshot_redacted: bool,
        device: String,
    },
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

/// Why an attempt did not reproduce: the replay's own verdict, the user's cancel (not
/// an error), or a device/server failure with its detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum AttemptReason {
    NoCrash,
    ElementNotFound,
    ActionFailed,
    DifferentCrash,
    Cancelled,
    RuntimeError { detail: String },
}

impl From<MissReason> for AttemptReason {
    fn from(reason: MissReason) -> Self {
        match reason {
            MissReason::NoCrash => AttemptReason::NoCrash,
            MissReason::ElementNotFound => AttemptReason::ElementNotFound,
            MissReason::ActionFailed => AttemptReason::ActionFailed,
            MissReason::DifferentCrash => AttemptReason::DifferentCrash,
        }
    }
}
