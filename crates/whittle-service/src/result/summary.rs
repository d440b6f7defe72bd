//! How a run ended and what it reports: the [`RunStatus`] an exit code is picked from
//! and the `--json` object ([`RunSummary`]) the CLI prints and the window shows.

use serde::{Deserialize, Serialize};
use whittle_core::engine::SearchResult;

use super::{Rating, SearchFlags};

/// The runtime failure a search ends with when the user cancels it: the run loop
/// answers its pending replay with it, and [`RunStatus::of`] reads it back.
pub(crate) const CANCELLED: &str = "cancelled by user";

/// How a run ended, coarse enough to pick an exit code from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// A live result that may be written back (after approval).
    Minimized,
    /// The original path did not reproduce live.
    NotReproduced,
    /// No live run was possible; a static, low-confidence suggestion only.
    Static,
    CaptureFailed,
    RuntimeFailed,
    Cancelled,
}

impl RunStatus {
    /// How a finished search ended. A runtime failure that is the user's cancel is
    /// `Cancelled` (it takes precedence: the capture is stopped by the cancel too).
    pub fn of(result: &SearchResult) -> RunStatus {
        if result.runtime_failure.as_deref() == Some(CANCELLED) {
            RunStatus::Cancelled
        } else if result.capture_failure.is_some() {
            RunStatus::CaptureFailed
        } else if result.runtime_failure.is_some() {
            RunStatus::RuntimeFailed
        } else if result.baseline_reproduced {
            RunStatus::Minimized
        } else {
            RunStatus::NotReproduced
        }
    }

    /// Capture, runtime or cancellation: the infrastructure, not the app, ended it.
    pub fn is_infrastructure_failure(self) -> bool {
        matches!(
            self,
            RunStatus::CaptureFailed | RunStatus::RuntimeFailed | RunStatus::Cancelled
        )
    }
}

/// docs/design.md §8's `--json` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunSummary {
    pub status: RunStatus,
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
