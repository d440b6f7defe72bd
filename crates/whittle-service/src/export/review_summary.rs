//! How far a person checked the screenshots of a run for private data: kept in the
//! evidence's `review.json`, shown by the window, recorded in an export's manifest.

use serde::{Deserialize, Serialize};

/// The counts the window and an export show. Omitting a screenshot is a review
/// decision, so omitted screenshots count as reviewed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReviewSummary {
    /// Screenshots archived by the run, omitted ones included.
    pub total: u32,
    pub reviewed: u32,
    pub omitted: u32,
    /// Attempts whose screenshot nobody has checked yet.
    pub not_reviewed: Vec<u32>,
}
