//! One finished attempt as every reader shows it — the window's live `AttemptFinished`
//! event, a reopened run, a resume's backfill, the export's screenshot labels — built from
//! the journal record by one function, so a live attempt, one shown again after a resume
//! and one reopened later look the same.

use serde::Serialize;
use whittle_core::engine::Phase;

use super::journal::JournalAttempt;
use super::AttemptVerdict;
use crate::replay::ObservedCrash;

/// One finished attempt, as the window shows it live (`RunEvent::AttemptFinished`) and
/// as a reopened run shows it: both are built from the journal record by
/// `evidence_step::recorded_attempt`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecordedAttempt {
    pub attempt: u32,
    pub phase: Phase,
    pub candidate: Vec<u32>,
    pub verdict: AttemptVerdict,
    /// Every crash the drain saw, compared against the target.
    pub observed: Vec<ObservedCrash>,
    /// Absent in evidence written before durations were recorded.
    pub duration_ms: Option<u32>,
    /// The masked screenshot, relative to the evidence session folder
    /// (`screenshots/attempt-NNN.png`), when one was archived.
    pub screenshot: Option<String>,
    pub screenshot_redacted: bool,
    /// The screenshot shows the screen right before this step's action (the last one),
    /// because the screen after the replay could not be kept (the app was gone).
    pub screenshot_before_step: Option<u32>,
    pub device: String,
    /// Run ahead of its turn by a spare device (docs/design.md §9).
    pub speculative: bool,
}

/// `entry` as the window and a reopened run show it; `screenshot` is the evidence
/// step's, checked (a live attempt passes its own).
pub(crate) fn recorded_attempt(
    entry: &JournalAttempt,
    screenshot: Option<String>,
    screenshot_redacted: bool,
) -> RecordedAttempt {
    RecordedAttempt {
        attempt: entry.attempt,
        phase: entry.phase,
        candidate: entry.candidate.clone(),
        verdict: AttemptVerdict::of(&entry.outcome),
        observed: entry
            .outcome
            .verdict()
            .map(|v| v.observed.clone())
            .unwrap_or_default(),
        duration_ms: Some(entry.duration_ms),
        screenshot_before_step: screenshot.as_ref().and(entry.screenshot_before_step),
        screenshot,
        screenshot_redacted,
        device: entry.device.clone(),
        speculative: entry.speculative,
    }
}
