//! The decision-cost workload of `benches/engine.rs`, callable from `whittle bench`:
//! a whole search against a deterministic oracle (the crash needs every essential
//! step), so a timer around it measures the engine's decisions, not a device.

use whittle_core::engine::EngineError;
use whittle_core::strategy::{needs_every, run_offline, SearchStrategy};

/// The two shapes of the criterion bench for a path of `steps` steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One step in the middle: the search is almost all bisection.
    Bisect,
    /// First and last step: the seed's one-by-one worst case.
    OneByOne,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Bisect => "bisect",
            Shape::OneByOne => "one_by_one",
        }
    }

    pub fn essential(self, steps: u32) -> Vec<u32> {
        match self {
            Shape::Bisect => vec![steps / 2 + 1],
            Shape::OneByOne => vec![1, steps],
        }
    }
}

/// Runs one whole search; returns how many replays it decided.
pub fn decide_all(strategy: SearchStrategy, steps: u32, shape: Shape) -> Result<u32, EngineError> {
    let essential = shape.essential(steps);
    // Large enough to finish: throughput is per replay decided.
    let mut engine = strategy.reducer((1..=steps).collect(), 100_000)?;
    let result = run_offline(engine.as_mut(), |request| {
        needs_every(&essential, &request.candidate)
    });
    Ok(result.attempts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_by_one_shape_is_the_seeds_worst_case_and_not_the_binary_ones() {
        let seed = decide_all(SearchStrategy::Seed, 100, Shape::OneByOne).unwrap();
        let binary = decide_all(SearchStrategy::Binary, 100, Shape::OneByOne).unwrap();
        assert!(seed > 10 * binary, "seed {seed}, binary {binary}");
        assert!(decide_all(SearchStrategy::Seed, 100, Shape::Bisect).unwrap() < 40);
    }
}
