use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use whittle_core::model::Confidence;

use crate::config::PrivacyLevel;

/// Everything a bundle is made of; the caller has already masked the screenshots.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportInput {
    pub engine_version: String,
    pub package: String,
    pub app_version: Option<String>,
    pub device: String,
    pub target_fingerprint: Option<String>,
    pub target_label: String,
    pub attempts: u32,
    pub confidence: Confidence,
    pub complete: bool,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub steps: Vec<ExportStep>,
    pub proof_lines: Vec<String>,
    /// "final path: reproduced 3 of 3 (95 % interval 43–100 %)" and one line per deletion.
    pub rate_lines: Vec<String>,
    /// Already-masked PNGs; copied into `screenshots/`.
    pub screenshots: Vec<PathBuf>,
    /// The privacy level they were masked at, for the manifest.
    pub masking_level: Option<PrivacyLevel>,
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
