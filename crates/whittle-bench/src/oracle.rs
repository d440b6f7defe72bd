//! The in-process oracle: what the simulator would answer to a replay, and how long the
//! replay would take on it.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use whittle_servers::sim::AppModel;

use super::rng::SplitMix64;
use super::scenario::Scenario;
use whittle_core::engine::{MissReason, ReplayOutcome};

/// The simulator's timing profile plus the driver's settle before the crash drain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OracleTiming {
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

impl Default for OracleTiming {
    /// The demo device: launch and action times from the simulator's model of the demo
    /// app (`demo/shop.json`, parsed by the simulator's own `AppModel`), the settle from
    /// `demo/whittle.json`. Both files are compiled in; `demo_timing_is_the_models` checks
    /// they parse.
    fn default() -> OracleTiming {
        let model = AppModel::parse(DEMO_MODEL, Path::new("demo/shop.json"))
            .expect("the demo model compiled into whittle-bench parses");
        let config: ConfigTiming = serde_json::from_str(DEMO_CONFIG)
            .expect("the demo configuration compiled into whittle-bench parses");
        let ms = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        OracleTiming {
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
    timing: OracleTiming,
    /// Replays answered per candidate, for drivers that run one at a time.
    answered: HashMap<Vec<u32>, u32>,
}

impl<'a> SimOracle<'a> {
    pub fn new(scenario: &'a Scenario, timing: OracleTiming) -> SimOracle<'a> {
        SimOracle {
            scenario,
            timing,
            answered: HashMap::new(),
        }
    }

    /// The next replay of `candidate` on one device, where every replay is used: its
    /// occurrence is how often this oracle answered the candidate before.
    pub fn replay_in_turn(&mut self, candidate: &[u32]) -> SimReplay {
        let before = self.answered.entry(candidate.to_vec()).or_default();
        let occurrence = *before;
        *before += 1;
        self.replay(candidate, occurrence)
    }

    /// The flaky draw (0..100) of the `occurrence`-th replay of `candidate`: a function
    /// of the scenario's seed, the candidate and how often the search had it answered
    /// before, not of when the replay ran. So the replays a search uses see the same
    /// draws on any number of devices, whatever ran speculatively in between.
    fn draw(&self, candidate: &[u32], occurrence: u32) -> u32 {
        let mut key = SplitMix64::new(self.scenario.seed ^ u64::from(occurrence)).next_u64();
        for &step in candidate {
            key = SplitMix64::new(key ^ u64::from(step)).next_u64();
        }
        SplitMix64::new(key ^ candidate.len() as u64).below(100)
    }

    /// Replays `candidate` after the launch: steps run in order until one whose
    /// prerequisite has not run (its element is not on screen), which ends the replay.
    /// `occurrence`: how many verdicts the search had for `candidate` before this one.
    pub fn replay(&self, candidate: &[u32], occurrence: u32) -> SimReplay {
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
        let roll = self.draw(candidate, occurrence);
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
        let t = super::OracleTiming::default();
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
        let oracle = SimOracle::new(&s, OracleTiming::default());
        assert_eq!(
            oracle.replay(&[2, 3, 5], 0).outcome,
            ReplayOutcome::Reproduced
        );
        assert_eq!(
            oracle.replay(&[1, 2, 3, 4, 5, 6], 0).outcome,
            ReplayOutcome::Reproduced
        );
        let blocked = oracle.replay(&[2, 5, 6], 0);
        assert_eq!(
            blocked.outcome,
            ReplayOutcome::NotReproduced {
                reason: MissReason::ElementNotFound
            }
        );
        // Launch + steps 2 and 5 (the failed tap) + settle; step 6 never ran.
        assert_eq!(blocked.device_ms, 600 + 2 * 250 + 300);
        assert_eq!(oracle.replay(&[3, 5], 0).device_ms, 600 + 2 * 250 + 300);
    }

    #[test]
    fn delayed_crashes_cost_time_not_outcomes() {
        let s = scenario(ScenarioKind::Delayed, 100, 2000);
        let oracle = SimOracle::new(&s, OracleTiming::default());
        let hit = oracle.replay(&[2, 3, 5], 0);
        assert_eq!(hit.outcome, ReplayOutcome::Reproduced);
        assert_eq!(hit.device_ms, 600 + 3 * 250 + 300 + 2000);
        assert_eq!(oracle.replay(&[2, 3], 0).device_ms, 600 + 2 * 250 + 300);
    }

    #[test]
    fn flaky_crashes_show_about_as_often_as_configured_and_repeat_per_seed() {
        let s = scenario(ScenarioKind::Flaky, 70, 0);
        let verdicts = |s: &Scenario| -> Vec<bool> {
            let oracle = SimOracle::new(s, OracleTiming::default());
            (0..400)
                .map(|k| oracle.replay(&[2, 3, 5], k).outcome == ReplayOutcome::Reproduced)
                .collect()
        };
        let first = verdicts(&s);
        assert_eq!(first, verdicts(&s));
        let hits = first.iter().filter(|&&hit| hit).count();
        assert!((240..=320).contains(&hits), "{hits} of 400");
    }
}
