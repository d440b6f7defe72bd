use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use whittle_core::engine::Phase;
use whittle_core::model::Confidence;
use whittle_core::plan::ActionKind;
use whittle_core::run_end::RunEnd;

use super::review_summary::ReviewSummary;
use super::seal_check::SealCheck;
use crate::config::PrivacyLevel;

/// Everything a bundle is made of; the caller has already masked the screenshots.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportInput {
    pub engine_version: String,
    pub package: String,
    pub app_version: Option<String>,
    /// The device id the run replayed on.
    pub device: String,
    /// The device's model as the mobile role names it (e.g. "Pixel 7"), when known.
    pub device_name: Option<String>,
    /// Its Android version (e.g. "14"), when the mobile role reports it.
    pub os_version: Option<String>,
    pub target_fingerprint: Option<String>,
    pub target_label: String,
    /// The target crash's stack trace as recorded; sanitized line by line on the way out.
    pub target_stack: Option<String>,
    /// The crashing process when it is not the app's main one (`app:sync`).
    pub side_process: Option<String>,
    pub attempts: u32,
    pub confidence: Confidence,
    pub complete: bool,
    /// How the run ended: only a minimized run's path is called minimal in the bundle.
    pub end: RunEnd,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub steps: Vec<ExportStep>,
    pub proof_lines: Vec<String>,
    /// "final path: reproduced 3 of 3 (95 % interval 43–100 %)" and one line per deletion.
    pub rate_lines: Vec<String>,
    /// Already-masked PNGs; copied into `screenshots/`.
    pub screenshots: Vec<ExportShot>,
    /// The privacy level they were masked at, for the manifest.
    pub masking_level: Option<PrivacyLevel>,
    /// The reviewer's checklist over the screenshots, when the evidence has one.
    pub review: Option<ReviewSummary>,
    /// Masked frames of the minimal path, when the final confirmation took them.
    pub filmstrip: Option<FilmstripInput>,
    /// The run's evidence session, as the ticket names it.
    pub evidence_session: String,
    /// Whether this machine verified the run (`seal_check.rs`).
    pub seal: SealCheck,
}

/// The frames of one final-confirmation replay of the minimal path (already masked).
#[derive(Debug, Clone, PartialEq)]
pub struct FilmstripInput {
    /// The replay they were taken in.
    pub attempt: u32,
    /// In order: after the launch, then after each step.
    pub frames: Vec<BundleFrame>,
    /// Device time every frame of the run cost.
    pub extra_device_ms: u64,
}

/// A frame of the bundle's filmstrip: its file, or why it has none, in the bundle's
/// words (the export sits below `evidence`, whose `ShotOmission` it cannot name).
#[derive(Debug, Clone, PartialEq)]
pub struct BundleFrame {
    /// The original session's step it follows (`None`: the launch had no step).
    pub step: Option<u32>,
    /// It shows the screen right before `step`'s action, which crashed the app.
    pub before_action: bool,
    /// The masked PNG; `None` when it was omitted.
    pub path: Option<PathBuf>,
    pub omitted: Option<String>,
}

/// One step of the minimal path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportStep {
    /// The step's index in the original session.
    pub index: u32,
    pub description: String,
    /// The replay plan entry; strings that look sensitive are replaced by `[redacted]`.
    pub action: serde_json::Value,
}

impl ExportStep {
    /// The fixed launch setup every replay starts with (not an action of its own).
    pub fn is_launch(&self) -> bool {
        self.action
            .get("action_type")
            .and_then(|v| v.as_str())
            .and_then(ActionKind::from_word)
            == Some(ActionKind::Launch)
    }
}

/// A masked screenshot and, when the evidence records it, the attempt it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportShot {
    pub path: PathBuf,
    pub attempt: Option<ShotLabel>,
}

/// What a screenshot is evidence of: which replay, of which steps, with what verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotLabel {
    pub attempt: u32,
    pub phase: Option<Phase>,
    /// The replayed steps after launch.
    pub candidate: Vec<u32>,
    pub verdict: ShotVerdict,
    /// The picture is the screen right before this step's action, the last one (the app
    /// was gone after the replay); `None` for the screen after the replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_step: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotVerdict {
    /// The target crash happened.
    Reproduced,
    NotReproduced,
    /// The replay itself failed (device or server trouble), so it proves nothing.
    Error,
    /// The user's Cancel stopped the replay, so it proves nothing either.
    Cancelled,
    /// A guess the search no longer needed, stopped halfway: it proves nothing.
    Unneeded,
}

impl ShotVerdict {
    /// For file names: `attempt-007-reproduced.png`.
    pub fn slug(self) -> &'static str {
        match self {
            ShotVerdict::Reproduced => "reproduced",
            ShotVerdict::NotReproduced => "not-reproduced",
            ShotVerdict::Error => "error",
            ShotVerdict::Cancelled => "cancelled",
            ShotVerdict::Unneeded => "unneeded",
        }
    }

    /// For people reading repro.md.
    pub fn words(self) -> &'static str {
        match self {
            ShotVerdict::Reproduced => "crashed (target crash reproduced)",
            ShotVerdict::NotReproduced => "no target crash",
            ShotVerdict::Error => "replay failed (proves nothing)",
            ShotVerdict::Cancelled => "cancelled (proves nothing)",
            ShotVerdict::Unneeded => "stopped, not needed (proves nothing)",
        }
    }
}
