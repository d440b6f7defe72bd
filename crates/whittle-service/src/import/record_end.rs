//! How one recorded replay of an imported flow ended (`import --record`, the app's *Run
//! once and record*): it crashed the app, it ran to its end without a crash, or it
//! stopped before its end (an element not found, an action that failed) without a crash.
//! Only a flow that ran to its end is a passed test; a stopped one never is.

use serde::Serialize;
use whittle_core::model::SessionStatus;

use crate::replay::{MissReason, ReplayVerdict};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordEnd {
    /// The flow crashed the app: the crashes are recorded, ready to minimize.
    Crashed,
    /// Every step ran and nothing crashed: the test passed.
    RanToEnd,
    /// The replay stopped at `step` (when known) for `reason`, and nothing crashed: the
    /// flow did not run, so it neither passed nor reproduced anything.
    Stopped {
        step: Option<u32>,
        reason: MissReason,
    },
}

impl RecordEnd {
    /// The end of a replay that saw `crashes` crashes and gave `verdict`.
    pub(crate) fn of(crashes: usize, verdict: Option<&ReplayVerdict>) -> RecordEnd {
        if crashes > 0 {
            return RecordEnd::Crashed;
        }
        match verdict.and_then(|v| v.reason.map(|reason| (reason, v.step))) {
            Some((reason @ (MissReason::ElementNotFound | MissReason::ActionFailed), step)) => {
                RecordEnd::Stopped { step, reason }
            }
            _ => RecordEnd::RanToEnd,
        }
    }

    /// The session's status: passed only when the flow ran to its end.
    pub fn session_status(self) -> SessionStatus {
        match self {
            RecordEnd::RanToEnd => SessionStatus::Passed,
            RecordEnd::Crashed | RecordEnd::Stopped { .. } => SessionStatus::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_that_stopped_is_never_passed() {
        let stopped = ReplayVerdict::missed(MissReason::ElementNotFound, Some(5), Vec::new());
        let end = RecordEnd::of(0, Some(&stopped));
        assert_eq!(
            end,
            RecordEnd::Stopped {
                step: Some(5),
                reason: MissReason::ElementNotFound
            }
        );
        assert_eq!(end.session_status(), SessionStatus::Failed);
        let ran = ReplayVerdict::missed(MissReason::NoCrash, None, Vec::new());
        assert_eq!(RecordEnd::of(0, Some(&ran)), RecordEnd::RanToEnd);
        assert_eq!(RecordEnd::RanToEnd.session_status(), SessionStatus::Passed);
        // A crash stops a flow too: the crash is what it recorded.
        assert_eq!(RecordEnd::of(1, Some(&stopped)), RecordEnd::Crashed);
    }
}
