use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use whittle_contract::analyzer::StaticSuggestion;
use whittle_core::assessment::Assessment;
use whittle_core::engine::SearchResult;

use super::{PendingResult, Rating, SearchFlags};

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
        if result.runtime_failure.as_deref() == Some(super::search::CANCELLED) {
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

/// Everything a finished run produced. The original session is untouched: the
/// sidecar is written only by [`super::approve`] on the user's say-so.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub summary: RunSummary,
    /// The Phase-5 text (report.md section and terminal output).
    pub report: String,
    /// Present only when a result may be written back.
    pub pending: Option<PendingResult>,
    pub evidence_dir: Option<PathBuf>,
    pub search: Option<SearchResult>,
    pub assessment: Option<Assessment>,
    pub static_suggestion: Option<StaticSuggestion>,
    /// Each time the run was resumed after an interruption (empty for a run in one go).
    pub resumed: Vec<super::ResumeMark>,
}
