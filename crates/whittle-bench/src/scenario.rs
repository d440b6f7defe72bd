//! The benchmark scenarios: generated from fixed seeds so every run is the same suite.

use serde::{Deserialize, Serialize};

use super::rng::SplitMix64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioKind {
    /// Crash iff every essential step is replayed.
    Plain,
    /// An essential step only works after a navigation step earlier in the path (its
    /// element is not on screen otherwise): the navigation step is needed too.
    Order,
    /// Deterministic trigger, but the crash shows only with some probability.
    Flaky,
    /// The crash comes seconds after the trigger: costs drain time, not outcomes.
    Delayed,
}

impl ScenarioKind {
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Plain => "plain",
            ScenarioKind::Order => "order",
            ScenarioKind::Flaky => "flaky",
            ScenarioKind::Delayed => "delayed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    pub kind: ScenarioKind,
    /// Replayable steps are `1..=steps`, in order.
    pub steps: u32,
    /// Steps that must all run for the crash, ascending.
    pub essential: Vec<u32>,
    /// `(before, step)`: `step` cannot be replayed unless `before` ran earlier.
    pub prerequisites: Vec<(u32, u32)>,
    /// Chance in percent that a triggered crash shows (100 = deterministic).
    pub reproduce_percent: u32,
    /// Extra drain time when the crash shows.
    pub crash_delay_ms: u32,
    /// Seed of the flaky verdicts.
    pub seed: u64,
}

impl Scenario {
    /// The unique 1-minimal path: the essential steps and their prerequisites.
    pub fn minimal(&self) -> Vec<u32> {
        let mut steps: Vec<u32> = self.essential.clone();
        steps.extend(self.prerequisites.iter().map(|&(before, _)| before));
        steps.sort_unstable();
        steps.dedup();
        steps
    }

    /// k of the lower bound: the size of the minimal path.
    pub fn k(&self) -> u32 {
        u32::try_from(self.minimal().len()).unwrap_or(u32::MAX)
    }

    fn generate(kind: ScenarioKind, steps: u32, essential: u32, variant: u32) -> Scenario {
        let seed = u64::from(steps) << 32 | u64::from(essential) << 16 | u64::from(variant);
        let mut rng = SplitMix64::new(seed ^ kind as u64);
        let picked = pick_steps(&mut rng, steps, essential);
        let mut prerequisites = Vec::new();
        if kind == ScenarioKind::Order {
            // The last essential step needs a navigation step somewhere before it.
            if let Some(&last) = picked.last() {
                let free: Vec<u32> = (1..last).filter(|s| !picked.contains(s)).collect();
                if !free.is_empty() {
                    let at = rng.below(u32::try_from(free.len()).unwrap_or(1)) as usize;
                    prerequisites.push((free[at], last));
                }
            }
        }
        let reproduce_percent = if kind == ScenarioKind::Flaky {
            [90, 70, 50][variant as usize % 3]
        } else {
            100
        };
        let crash_delay_ms = if kind == ScenarioKind::Delayed {
            2000
        } else {
            0
        };
        // The bench measures the search, which only starts when the live baseline (the
        // first verdict) reproduces: flaky scenarios take the first seed where it does.
        let mut seed = seed;
        while SplitMix64::new(seed).below(100) >= reproduce_percent {
            seed += 1;
        }
        let mut name = format!("{}-n{steps}-k{essential}", kind.name());
        if kind == ScenarioKind::Flaky {
            name.push_str(&format!("-p{reproduce_percent}"));
        } else if variant > 0 {
            name.push_str(&format!("-{variant}"));
        }
        Scenario {
            name,
            kind,
            steps,
            essential: picked,
            prerequisites,
            reproduce_percent,
            crash_delay_ms,
            seed,
        }
    }
}

/// `count` distinct steps of `1..=steps` drawn from `rng`, ascending.
pub(crate) fn pick_steps(rng: &mut SplitMix64, steps: u32, count: u32) -> Vec<u32> {
    let mut picked: Vec<u32> = Vec::new();
    while picked.len() < count.min(steps) as usize {
        let step = 1 + rng.below(steps);
        if !picked.contains(&step) {
            picked.push(step);
        }
    }
    picked.sort_unstable();
    picked
}

/// The suite: sizes 8–200, 1–5 essential steps, order dependencies, flaky crashes
/// (90/70/50 %) and delayed crashes. `quick` is a small subset for tests.
pub fn suite(quick: bool) -> Vec<Scenario> {
    use ScenarioKind::*;
    let plan: &[(ScenarioKind, u32, u32, u32)] = if quick {
        &[
            (Plain, 8, 1, 0),
            (Plain, 16, 2, 0),
            (Order, 16, 2, 0),
            (Flaky, 16, 2, 1),
            (Delayed, 16, 2, 0),
        ]
    } else {
        &[
            (Plain, 8, 1, 0),
            (Plain, 8, 3, 0),
            (Plain, 16, 2, 0),
            (Plain, 16, 3, 0),
            (Plain, 32, 3, 0),
            (Plain, 64, 3, 0),
            (Plain, 128, 3, 0),
            (Plain, 128, 5, 0),
            (Plain, 200, 1, 0),
            (Plain, 200, 4, 0),
            (Order, 16, 2, 0),
            (Order, 64, 3, 0),
            (Order, 200, 4, 0),
            (Flaky, 16, 2, 0),
            (Flaky, 32, 2, 1),
            (Flaky, 64, 3, 2),
            (Delayed, 32, 3, 0),
            (Delayed, 128, 3, 0),
        ]
    };
    plan.iter()
        .map(|&(kind, steps, essential, variant)| {
            Scenario::generate(kind, steps, essential, variant)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suite_is_deterministic_and_well_formed() {
        assert_eq!(suite(false), suite(false));
        for scenario in suite(false).into_iter().chain(suite(true)) {
            assert!((8..=200).contains(&scenario.steps), "{}", scenario.name);
            assert!(
                (1..=5).contains(&scenario.essential.len()),
                "{}",
                scenario.name
            );
            assert!(scenario
                .minimal()
                .iter()
                .all(|s| (1..=scenario.steps).contains(s)));
            for &(before, step) in &scenario.prerequisites {
                assert!(before < step && scenario.essential.contains(&step));
                assert!(!scenario.essential.contains(&before));
            }
            if scenario.kind == ScenarioKind::Flaky {
                assert!((50..=90).contains(&scenario.reproduce_percent));
                let first = SplitMix64::new(scenario.seed).below(100);
                assert!(first < scenario.reproduce_percent, "baseline reproduces");
            } else {
                assert_eq!(scenario.reproduce_percent, 100);
            }
        }
        let order = suite(false)
            .into_iter()
            .find(|s| s.kind == ScenarioKind::Order)
            .unwrap();
        assert_eq!(order.k(), u32::try_from(order.essential.len()).unwrap() + 1);
    }
}
