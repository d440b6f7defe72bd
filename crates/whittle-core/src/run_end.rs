//! How a run ended: the one typed end every reader tells (the CLI's text, exit code and
//! `--json`, the evidence `report.md`, the window, the export, `whittle mcp`). Computed
//! once, by [`crate::assessment::assess`], from the search result and its confidence;
//! no reader derives it again (docs/design.md §3, "How a run ends").

use serde::{Deserialize, Serialize};

use crate::engine::{FailureCause, SearchResult, SearchStop};
use crate::model::Confidence;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum RunEnd {
    /// The baseline reproduced, the search ran to its end and the result is proven
    /// with high confidence: the only end ever called minimal.
    Minimized,
    /// The baseline reproduced and the search ran to its end, but minimality is not
    /// proven (budget, flakiness, a degraded signature, a statistical proof): the
    /// shortest reproducing path so far. It may still be approved.
    Unproven,
    /// The original path did not reproduce live in this run.
    NotReproduced,
    /// No live run was possible: the analyzer's static suggestion, confidence low.
    Static,
    /// The log capture was missing or did not stop cleanly: crashes may have gone unseen.
    CaptureFailed { cause: FailureCause },
    /// A replay failed in the infrastructure (MCP server, device, evidence write).
    RuntimeFailed { cause: FailureCause },
    /// The user cancelled: the path so far is neither minimal nor approvable.
    Cancelled,
}

impl RunEnd {
    /// The end of a live search rated `confidence` (`None`: nothing to rate).
    pub fn of(result: &SearchResult, confidence: Option<Confidence>) -> RunEnd {
        match &result.stop {
            Some(SearchStop::Cancelled) => RunEnd::Cancelled,
            Some(SearchStop::CaptureFailed { cause }) => RunEnd::CaptureFailed {
                cause: cause.clone(),
            },
            Some(SearchStop::RuntimeFailed { cause }) => RunEnd::RuntimeFailed {
                cause: cause.clone(),
            },
            None if !result.baseline_reproduced => RunEnd::NotReproduced,
            None if confidence == Some(Confidence::High) => RunEnd::Minimized,
            None => RunEnd::Unproven,
        }
    }

    /// The `status` identifier `--json` and `result.json` carry (not wording).
    pub fn status(&self) -> &'static str {
        match self {
            RunEnd::Minimized => "minimized",
            RunEnd::Unproven => "unproven",
            RunEnd::NotReproduced => "not_reproduced",
            RunEnd::Static => "static",
            RunEnd::CaptureFailed { .. } => "capture_failed",
            RunEnd::RuntimeFailed { .. } => "runtime_failed",
            RunEnd::Cancelled => "cancelled",
        }
    }

    /// Only this end may call its path minimal.
    pub fn is_minimal(&self) -> bool {
        matches!(self, RunEnd::Minimized)
    }

    /// A live result that may be approved and written back: the baseline reproduced
    /// and nothing stopped the search.
    pub fn may_write_back(&self) -> bool {
        matches!(self, RunEnd::Minimized | RunEnd::Unproven)
    }

    /// The user or the infrastructure, not the app, ended it.
    pub fn is_interrupted(&self) -> bool {
        matches!(
            self,
            RunEnd::Cancelled | RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. }
        )
    }

    /// The infrastructure's cause, when it ended the run.
    pub fn failure(&self) -> Option<&FailureCause> {
        match self {
            RunEnd::CaptureFailed { cause } | RunEnd::RuntimeFailed { cause } => Some(cause),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_identifier_is_the_serialized_tag() {
        let cause = FailureCause::Drain { detail: "d".into() };
        for end in [
            RunEnd::Minimized,
            RunEnd::Unproven,
            RunEnd::NotReproduced,
            RunEnd::Static,
            RunEnd::CaptureFailed {
                cause: cause.clone(),
            },
            RunEnd::RuntimeFailed { cause },
            RunEnd::Cancelled,
        ] {
            let json = serde_json::to_value(&end).unwrap();
            assert_eq!(json["status"], end.status());
        }
    }
}
