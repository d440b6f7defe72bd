//! The in-process oracle: what the simulator would answer to a replay, and how long the
//! replay would take on it.

use std::path::Path;

use serde::{Deserialize, Serialize};
use whittle_servers::sim::AppModel;

use super::rng::SplitMix64;
use super::scenario::Scenario;
use whittle_core::engine::{MissReason, ReplayOutcome};

/// The simulator's timing profile plus the driver's settle before the crash drain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    pub launch_ms: u32,
    pub action_ms: u32,
    pub settle_ms: u32,
}

/// The demo app as the simulator runs it, and the demo configuration's waits: read, not
/// copied, so the bench cannot drift from what `whittle-servers sim` does.
const DEMO_MODEL: &str = include_str!("../../../demo/shop.json");
const DEMO_CONFIG: &str = include_str!("../../../demo/whittle.json");

#[derive(Deserialize)]
struct ConfigTiming {
    timing: SettleOnly,
}

#[derive(Deserialize)]
struct SettleOnly {
    settle_ms: u32,
}

impl Default for Timing {
    /// The demo device: launch and action times from the simulator's model of the demo
    /// app (`demo/shop.json`, parsed by the simulator's own `AppModel`), the settle from
    /// `demo/whittle.json`. Both files are compiled in; `demo_timing_is_the_models` checks
    /// they parse.
    fn default() -> Timing {
        let model = AppModel::parse(DEMO_MODEL, Path::new("demo/shop.json"))
            .expect("the demo model compiled into whittle-bench parses");
        let config: ConfigTiming = serde_json::from_str(DEMO_CONFIG)
            .expect("the demo configuration compiled into whittle-bench parses");
        let ms = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        Timing {
            launch_ms: ms(model.timing.launch_ms),
            action_ms: ms(model.timing.action_ms),
            settle_ms: config.timing.settle_ms,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimReplay {
    pub outcome: ReplayOutcome,
    /// Simulated device time of this replay.
    pub device_ms: u64,
}

pub struct SimOracle<'a> {
    scenario: &'a Scenario,
    timing: Timing,
    rng: SplitMix64,
}

impl<'a> SimOracle<'a> {
    pub fn new(scenario: &'a Scenario, timing: Timing) -> SimOracle<'a> {
        SimOracle {
            scenario,
            timing,
            rng: SplitMix64::new(scenario.seed),
        }
    }

    /// Replays `candidate` after the launch: steps run in order until one whose
    /// prerequisite has not run (its element is not on screen), which ends the replay.
    pub fn replay(&mut self, candidate: &[u32]) -> SimReplay {
        let mut ran: Vec<u32> = Vec::with_capacity(candidate.len());
        let mut actions: u64 = 0;
        let mut blocked = false;
        for &step in candidate {
            actions += 1; // a failed tap still costs its wait
            let missing = self
                .scenario
                .prerequisites
                .iter()
                .any(|&(before, needing)| needing == step && !ran.contains(&before));
            if missing {
                blocked = true;
                break;
            }
            ran.push(step);
        }
        let triggered = self.scenario.essential.iter().all(|s| ran.contains(s));
        // Every replay draws, so a run's verdict sequence depends only on the seed.
        let roll = self.rng.below(100);
        let crashed = triggered && roll < self.scenario.reproduce_percent;
        let mut device_ms = u64::from(self.timing.launch_ms)
            + actions * u64::from(self.timing.action_ms)
            + u64::from(self.timing.settle_ms);
        if crashed {
            device_ms += u64::from(self.scenario.crash_delay_ms);
        }
        let outcome = if crashed {
            ReplayOutcome::Reproduced
        } else {
            ReplayOutcome::NotReproduced {
                reason: if blocked {
                    MissReason::ElementNotFound
                } else {
                    MissReason::NoCrash
                },
            }
        };
        SimReplay { outcome, device_ms }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn demo_timing_is_the_models() {
        let t = super::Timing::default();
        // The figures docs/performance.md was measured with; a changed model moves them.
        assert_eq!((t.launch_ms, t.action_ms, t.settle_ms), (600, 250, 300));
    }

    use super::*;
    use crate::ScenarioKind;

    fn scenario(kind: ScenarioKind, percent: u32, delay: u32) -> Scenario {
        Scenario {
            name: "t".to_owned(),
            kind,
            steps: 6,
            essential: vec![2, 5],
            prerequisites: vec![(3, 5)],
            reproduce_percent: percent,
            crash_delay_ms: delay,
            seed: 1,
        }
    }

    #[test]
    fn crash_needs_every_essential_step_and_its_prerequisite() {
        let s = scenario(ScenarioKind::Order, 100, 0);
        let mut oracle = SimOracle::new(&s, Timing::default());
        assert_eq!(oracle.replay(&[2, 3, 5]).outcome, ReplayOutcome::Reproduced);
        assert_eq!(
            oracle.replay(&[1, 2, 3, 4, 5, 6]).outcome,
            ReplayOutcome::Reproduced
        );
        let blocked = oracle.replay(&[2, 5, 6]);
        assert_eq!(
            blocked.outcome,
            ReplayOutcome::NotReproduced {
                reason: MissReason::ElementNotFound
            }
        );
        // Launch + steps 2 and 5 (the failed tap) + settle; step 6 never ran.
        assert_eq!(blocked.device_ms, 600 + 2 * 250 + 300);
        assert_eq!(oracle.replay(&[3, 5]).device_ms, 600 + 2 * 250 + 300);
    }

    #[test]
    fn delayed_crashes_cost_time_not_outcomes() {
        let s = scenario(ScenarioKind::Delayed, 100, 2000);
        let mut oracle = SimOracle::new(&s, Timing::default());
        let hit = oracle.replay(&[2, 3, 5]);
        assert_eq!(hit.outcome, ReplayOutcome::Reproduced);
        assert_eq!(hit.device_ms, 600 + 3 * 250 + 300 + 2000);
        assert_eq!(oracle.replay(&[2, 3]).device_ms, 600 + 2 * 250 + 300);
    }

    #[test]
    fn flaky_crashes_show_about_as_often_as_configured_and_repeat_per_seed() {
        let s = scenario(ScenarioKind::Flaky, 70, 0);
        let verdicts = |s: &Scenario| -> Vec<bool> {
            let mut oracle = SimOracle::new(s, Timing::default());
            (0..400)
                .map(|_| oracle.replay(&[2, 3, 5]).outcome == ReplayOutcome::Reproduced)
                .collect()
        };
        let first = verdicts(&s);
        assert_eq!(first, verdicts(&s));
        let hits = first.iter().filter(|&&hit| hit).count();
        assert!((240..=320).contains(&hits), "{hits} of 400");
    }
}
