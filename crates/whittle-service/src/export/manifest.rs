use serde::{Deserialize, Serialize};
use whittle_core::model::Confidence;

use super::review_summary::ReviewSummary;
use super::seal_check::SealCheck;
use super::{ExportStep, ShotLabel};
use crate::config::PrivacyLevel;

pub const MANIFEST_FILE: &str = "manifest.json";
pub const REPLAY_FILE: &str = "replay.json";
pub const REPRO_FILE: &str = "repro.md";
pub const SCREENSHOTS_DIR: &str = "screenshots";
/// The minimal path as a Maestro flow (`maestro test repro.maestro.yaml`).
pub const MAESTRO_FILE: &str = "repro.maestro.yaml";
/// The minimal path as a Firebase Robo script.
pub const ROBO_FILE: &str = "repro.robo.json";
pub const FILMSTRIP_DIR: &str = "filmstrip";
pub const FILMSTRIP_GIF: &str = "filmstrip.gif";
pub(crate) const BUNDLE_SCHEMA: u32 = 1;

/// `manifest.json`: identity of the app and run, and every other file with its hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: u32,
    pub engine_version: String,
    pub package: String,
    pub app_version: Option<String>,
    pub device: String,
    /// The device's model and Android version, when the mobile role reported them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_version: Option<String>,
    pub target_fingerprint: Option<String>,
    pub target_label: String,
    pub attempts: u32,
    pub confidence: Confidence,
    pub complete: bool,
    /// The privacy level the screenshots were masked at; `None` when the evidence
    /// predates levels (and in bundles written before this field existed).
    #[serde(default)]
    pub masking_level: Option<PrivacyLevel>,
    /// Each screenshot with the attempt and verdict it shows (also in its file name).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub screenshots: Vec<ManifestShot>,
    /// How many screenshots a person checked before export, and which they did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewSummary>,
    /// The frames of the minimal path, in order, and what they cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filmstrip: Option<ManifestFilmstrip>,
    /// Whether the machine that exported the bundle verified the run (`seal_check.rs`);
    /// absent in bundles written before the check existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<SealCheck>,
    pub files: Vec<ManifestFile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFilmstrip {
    /// The final-confirmation replay the frames were taken in.
    pub attempt: u32,
    pub frames: Vec<ManifestFrame>,
    /// `filmstrip.gif`, when at least one frame could be shown.
    pub gif: Option<String>,
    /// Device time the frames added to the run.
    pub extra_device_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFrame {
    /// 1-based, as in `filmstrip/step-NN.png` and the steps of repro.md.
    pub position: u32,
    /// The original session's step the frame follows.
    pub step: Option<u32>,
    /// The frame shows the screen right before `step`'s action (which crashed the app,
    /// leaving nothing to show after it); absent when it follows the step.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_action: bool,
    /// Relative to the bundle; absent when the frame was omitted.
    pub path: Option<String>,
    pub omitted: Option<String>,
}

/// A screenshot of the bundle and what it is evidence of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestShot {
    /// Relative to the bundle folder, as in `files`.
    pub path: String,
    #[serde(flatten)]
    pub label: ShotLabel,
}

/// A screenshot as written into the bundle, labelled when the evidence said what it shows.
pub(crate) struct ManifestShotDraft {
    pub path: String,
    pub label: Option<ShotLabel>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Relative to the bundle folder, '/'-separated.
    pub path: String,
    /// Lowercase hex SHA-256.
    pub sha256: String,
}

/// `replay.json`: the minimal replay plan `whittle verify` runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayFile {
    pub schema: u32,
    pub package: String,
    pub app_version: Option<String>,
    pub target_fingerprint: Option<String>,
    pub target_label: String,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub steps: Vec<ExportStep>,
}
