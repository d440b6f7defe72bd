//! The replay plan and its parts, as the engine runs them and the app shows them.

use serde::{Deserialize, Serialize};

use crate::redact::Redacted;

use super::describe::StepWords;
use super::locator::Strategy;
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
    /// The notices below in English, one sentence each (the CLI and reports print them).
    pub warnings: Vec<String>,
    /// What a tester should know about the plan before a run, as data (same order as
    /// `warnings`), so the window can word it in its own language.
    pub notices: Vec<PlanNotice>,
}

/// One thing about the plan worth a warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanNotice {
    StepSkipped {
        step: u32,
        reason: SkipReason,
    },
    /// Steps read from the older text format (no `notes.replay` object).
    LegacySteps {
        count: u32,
    },
    /// Less than half of the actions can be replayed: no live run.
    LowCoverage {
        replayable: u32,
        non_launch: u32,
    },
}

impl std::fmt::Display for PlanNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanNotice::StepSkipped { step, reason } => {
                write!(f, "Step {step} is skipped. {reason}")
            }
            PlanNotice::LegacySteps { count } => write!(
                f,
                "{count} step(s) carry no replay metadata; their action was read from the \
                 older text format."
            ),
            PlanNotice::LowCoverage {
                replayable,
                non_launch,
            } => write!(
                f,
                "Only {replayable} of {non_launch} actions can be replayed (less than half), so a \
                 live replay would not be meaningful; use the analyzer's static suggestion instead."
            ),
        }
    }
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
    LongPress {
        strategy: Strategy,
    },
    /// The app started again mid-path: stopped first unless `stop_app` is false (Maestro's
    /// `launchApp` with `stopApp: false` brings a running app to the front).
    Relaunch {
        stop_app: bool,
    },
    InputText {
        strategy: Strategy,
        /// Serializes as `[redacted]`; the engine reads it with `expose()`.
        #[cfg_attr(feature = "specta", specta(type = String))]
        value: Redacted<String>,
    },
}

impl ReplayAction {
    pub fn kind(&self) -> ActionKind {
        match self {
            ReplayAction::PressButton { .. } => ActionKind::PressButton,
            ReplayAction::Tap { .. } => ActionKind::Tap,
            ReplayAction::LongPress { .. } => ActionKind::LongPress,
            ReplayAction::Relaunch { .. } => ActionKind::Relaunch,
            ReplayAction::InputText { .. } => ActionKind::InputText,
        }
    }
}

/// What one step of a replayable path does: the launch every replay starts with, or
/// one of the [`ReplayAction`]s. Written as the session's own `action_type` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    Launch,
    Tap,
    InputText,
    PressButton,
    LongPress,
    Relaunch,
}

impl ActionKind {
    /// The word sessions and results write for it.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Launch => "launch",
            ActionKind::Tap => "tap",
            ActionKind::InputText => "input_text",
            ActionKind::PressButton => "press_button",
            ActionKind::LongPress => "long_press",
            ActionKind::Relaunch => "relaunch",
        }
    }

    /// The kind `word` names, if it is one (words read from untrusted files).
    pub fn from_word(word: &str) -> Option<ActionKind> {
        [
            ActionKind::Launch,
            ActionKind::Tap,
            ActionKind::InputText,
            ActionKind::PressButton,
            ActionKind::LongPress,
            ActionKind::Relaunch,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == word)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlannedStep {
    pub index: u32,
    /// The action in plain words, never with a typed or sensitive value.
    pub description: String,
    /// The same, as data for a window that words it in its own language.
    pub words: StepWords,
    pub disposition: Disposition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Disposition {
    Setup,
    Replayable,
    Skipped { reason: SkipReason },
}

/// How much of the path (launch excluded) can be replayed live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Records a notice and its English sentence together.
    pub(crate) fn notice(&mut self, notice: PlanNotice) {
        self.warnings.push(notice.to_string());
        self.notices.push(notice);
    }

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
    /// that are setup or in `candidate`, in original order (Phase 3 (docs/design.md §13), `minimal`).
    pub fn path_with_setup(&self, candidate: &[u32]) -> Vec<u32> {
        self.repro_path
            .iter()
            .copied()
            .filter(|i| self.setup.contains(i) || candidate.contains(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_kind_is_written_as_the_session_word_and_read_back() {
        for (kind, word) in [
            (ActionKind::Launch, "launch"),
            (ActionKind::Tap, "tap"),
            (ActionKind::InputText, "input_text"),
            (ActionKind::PressButton, "press_button"),
            (ActionKind::LongPress, "long_press"),
            (ActionKind::Relaunch, "relaunch"),
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), word);
            assert_eq!(kind.as_str(), word);
            assert_eq!(ActionKind::from_word(word), Some(kind));
            let read: ActionKind = serde_json::from_value(word.into()).unwrap();
            assert_eq!(read, kind);
        }
        assert_eq!(ActionKind::from_word("swipe"), None);
        assert!(serde_json::from_value::<ActionKind>("swipe".into()).is_err());
    }
}
