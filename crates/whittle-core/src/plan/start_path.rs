//! A run that starts from a path already found — the minimal path of a run made
//! elsewhere, re-proven on this machine (docs/SECURITY.md §12, "A run made elsewhere").
//! The seed's search is the same; only its `current` starts smaller: the plan's
//! replayable steps that lie on that path (Phase 3, `current = replayable_steps`). What
//! it proves is proven here: a 1-minimal path needs no more than itself, wherever its
//! starting point came from. The path is untrusted (it was read from another
//! installation's evidence), so it must be a part of the crash's own recorded path.

use super::types::ReplayPlan;

/// Why a path cannot be where a run starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartPathError {
    #[error("step {step} is not on the crash's recorded path")]
    NotOnPath { step: u32 },
    #[error("the steps are not in the order of the crash's recorded path")]
    OutOfOrder,
}

impl ReplayPlan {
    /// This plan with only the replayable steps of `path` as deletion candidates: the
    /// plan of a run that starts from `path`. Setup and skipped steps stay as they are
    /// (the report still shows the whole recorded path).
    pub fn starting_from(mut self, path: &[u32]) -> Result<ReplayPlan, StartPathError> {
        let mut rest = self.repro_path.iter();
        for &step in path {
            if !self.repro_path.contains(&step) {
                return Err(StartPathError::NotOnPath { step });
            }
            if !rest.any(|&on_path| on_path == step) {
                return Err(StartPathError::OutOfOrder);
            }
        }
        self.replayable.retain(|s| path.contains(&s.index));
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{ReplayAction, ReplayStep};

    fn plan(path: &[u32], replayable: &[u32]) -> ReplayPlan {
        ReplayPlan {
            repro_path: path.to_vec(),
            setup: vec![path[0]],
            replayable: replayable
                .iter()
                .map(|&index| ReplayStep {
                    index,
                    action: ReplayAction::PressButton {
                        button: "BACK".into(),
                    },
                })
                .collect(),
            steps: Vec::new(),
            launch_anchor: None,
            coverage: crate::plan::Coverage {
                non_launch: 0,
                replayable: 0,
            },
            warnings: Vec::new(),
            notices: Vec::new(),
        }
    }

    #[test]
    fn only_the_replayable_steps_of_the_path_are_candidates() {
        let full = plan(&[1, 2, 3, 4, 5], &[2, 3, 5]);
        // Setup (1) and a skipped step (4) on the path are no candidates either way.
        let started = full.clone().starting_from(&[1, 3, 4, 5]).unwrap();
        assert_eq!(started.candidate_ids(), [3, 5]);
        assert_eq!(started.repro_path, full.repro_path);
        assert_eq!(started.setup, full.setup);
        // The launch alone: no candidate, the baseline replays the launch.
        assert!(full
            .clone()
            .starting_from(&[1])
            .unwrap()
            .candidate_ids()
            .is_empty());
    }

    #[test]
    fn a_path_that_is_not_part_of_the_recorded_one_is_refused() {
        let full = plan(&[1, 2, 3, 4, 5], &[2, 3, 5]);
        assert_eq!(
            full.clone().starting_from(&[1, 9]).unwrap_err(),
            StartPathError::NotOnPath { step: 9 }
        );
        assert_eq!(
            full.clone().starting_from(&[3, 2]).unwrap_err(),
            StartPathError::OutOfOrder
        );
        assert_eq!(
            full.starting_from(&[2, 2]).unwrap_err(),
            StartPathError::OutOfOrder
        );
    }
}
