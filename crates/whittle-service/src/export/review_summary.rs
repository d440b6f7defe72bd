//! How far a person checked the pictures of a run (the attempts' screenshots and the
//! filmstrip frames) for private data: kept in the evidence's `review.json`, shown by the
//! window, recorded in an export's manifest.

use serde::{Deserialize, Serialize};

/// The counts the window and an export show, over every picture of the evidence.
/// Omitting a picture is a review decision, so omitted pictures count as reviewed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReviewSummary {
    /// Pictures archived by the run (screenshots and frames), omitted ones included.
    pub total: u32,
    pub reviewed: u32,
    pub omitted: u32,
    /// Attempts whose screenshot nobody has checked yet.
    pub not_reviewed: Vec<u32>,
    /// Filmstrip frames nobody has checked yet (absent in bundles written before frames
    /// were reviewed).
    #[serde(default)]
    pub not_reviewed_frames: Vec<FrameRef>,
}

/// A filmstrip frame: frame `frame` (1 = after the launch) of the strip attempt
/// `attempt` took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FrameRef {
    pub attempt: u32,
    pub frame: u32,
}
