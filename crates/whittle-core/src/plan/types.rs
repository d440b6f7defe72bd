//! The replay plan and its parts, as the engine runs them and the app shows them.

use serde::Serialize;

use crate::contract::ui::Strategy;
use crate::redact::Redacted;

use super::skip::SkipReason;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplayPlan {
    /// The crash's original path, in its order.
    pub repro_path: Vec<u32>,
    /// Launch steps: implied by every replay, never deletion candidates.
    pub setup: Vec<u32>,
    /// The deletion candidates, in path order.
    pub replayable: Vec<ReplayStep>,
    /// Every step of `repro_path`, in its order, with what the plan does with it.
    pub steps: Vec<PlannedStep>,
    /// What to wait for after launching, when the launch step recorded it.
    pub launch_anchor: Option<Strategy>,
    pub coverage: Coverage,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplayStep {
    pub index: u32,
    pub action: ReplayAction,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReplayAction {
    PressButton {
        button: String,
    },
    Tap {
        strategy: Strategy,
    },
    InputText {
        strategy: Strategy,
        /// Serializes as `[redacted]`; the engine reads it with `expose()`.
        #[cfg_attr(feature = "specta", specta(type = String))]
        value: Redacted<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PlannedStep {
    pub index: u32,
    /// The action in plain words, never with a typed or sensitive value.
    pub description: String,
    pub disposition: Disposition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Disposition {
    Setup,
    Replayable,
    Skipped { reason: SkipReason },
}

/// How much of the path (launch excluded) can be replayed live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Coverage {
    pub non_launch: u32,
    pub replayable: u32,
}

impl Coverage {
    /// At least half of the non-launch actions replayable; a launch-only path (0/0)
    /// is allowed and runs its baseline with no actions.
    pub fn allows_live_run(&self) -> bool {
        self.non_launch == 0 || 2 * u64::from(self.replayable) >= u64::from(self.non_launch)
    }
}

impl ReplayPlan {
    /// The deletion candidates' step indexes, in path order.
    pub fn candidate_ids(&self) -> Vec<u32> {
        self.replayable.iter().map(|s| s.index).collect()
    }

    pub fn step(&self, index: u32) -> Option<&ReplayStep> {
        self.replayable.iter().find(|s| s.index == index)
    }

    /// The path has no action besides launch: the crash may happen on launch alone.
    pub fn launch_only(&self) -> bool {
        self.coverage.non_launch == 0
    }

    /// The path to report for a reproducing candidate: the original path's entries
    /// that are setup or in `candidate`, in original order (seed Phase 3, `minimal`).
    pub fn path_with_setup(&self, candidate: &[u32]) -> Vec<u32> {
        self.repro_path
            .iter()
            .copied()
            .filter(|i| self.setup.contains(i) || candidate.contains(i))
            .collect()
    }
}
