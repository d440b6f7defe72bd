//! What a run reports: the `--json` object ([`RunSummary`]) the CLI prints and the
//! window shows, headed by the run's typed end (`RunEnd`, computed once in the core),
//! which an exit code is picked from.

use serde::{Deserialize, Serialize};
use whittle_core::run_end::RunEnd;

use super::{Rating, SearchFlags};

/// docs/design.md §8's `--json` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunSummary {
    /// Flattened: `status` (and `cause` for a failure) stay the object's first fields.
    #[serde(flatten)]
    pub end: RunEnd,
    pub session: String,
    pub crash_id: String,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub attempts: u32,
    #[serde(flatten)]
    pub rating: Rating,
    #[serde(flatten)]
    pub search: SearchFlags,
    pub target_fingerprint: Option<String>,
    pub evidence_session: Option<String>,
    pub warnings: Vec<String>,
}
