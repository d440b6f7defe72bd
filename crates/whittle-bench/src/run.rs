//! Drives one strategy through one scenario against the in-process oracle, on one
//! device (the sequential reference; `devices::simulate_on` runs N).

use serde::{Deserialize, Serialize};

use super::oracle::{OracleTiming, SimOracle};
use super::scenario::Scenario;
use whittle_core::engine::{EngineError, Phase, SearchResult};
use whittle_core::strategy::{run_offline, SearchStrategy};

/// One replay the engine asked for, as the device model needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayRecord {
    pub phase: Phase,
    pub candidate: Vec<u32>,
    pub device_ms: u64,
    /// Which device ran it (1-based; always 1 on one device).
    pub device: u32,
    /// Handed out ahead of the search's own request, on predicted outcomes.
    pub speculative: bool,
    /// `false` for a wasted speculative replay (ran, verdict unused, not in the budget).
    pub consumed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub result: SearchResult,
    pub replays: Vec<ReplayRecord>,
    /// Simulated device time of every replay, wasted ones included.
    pub device_ms: u64,
    pub devices: u32,
    /// Replays that ran speculatively and were not used (not in `result.attempts`).
    pub wasted: u32,
    /// Wall-clock: when the last device reported.
    pub wall_ms: u64,
}

pub fn simulate(
    scenario: &Scenario,
    strategy: SearchStrategy,
    max_replays: u32,
    timing: OracleTiming,
) -> Result<Run, EngineError> {
    let mut engine = strategy.reducer((1..=scenario.steps).collect(), max_replays)?;
    let mut oracle = SimOracle::new(scenario, timing);
    let mut replays = Vec::new();
    let result = run_offline(engine.as_mut(), |request| {
        let replay = oracle.replay_in_turn(&request.candidate);
        replays.push(ReplayRecord {
            phase: request.phase,
            candidate: request.candidate.clone(),
            device_ms: replay.device_ms,
            device: 1,
            speculative: false,
            consumed: true,
        });
        replay.outcome
    });
    let device_ms = replays.iter().map(|r| r.device_ms).sum();
    Ok(Run {
        result,
        replays,
        device_ms,
        devices: 1,
        wasted: 0,
        wall_ms: device_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite;

    #[test]
    fn every_replay_is_counted_and_timed() {
        for scenario in suite(true) {
            for strategy in SearchStrategy::ALL {
                let run = simulate(&scenario, strategy, 2000, OracleTiming::default()).unwrap();
                assert_eq!(run.replays.len() as u32, run.result.attempts);
                assert_eq!(
                    run.device_ms,
                    run.replays.iter().map(|r| r.device_ms).sum::<u64>()
                );
                // Every replay costs at least the launch and the settle.
                assert!(run.device_ms >= u64::from(run.result.attempts) * 900);
            }
        }
    }

    #[test]
    fn deterministic_scenarios_end_at_the_minimal_path_with_high_confidence() {
        for scenario in suite(true).iter().filter(|s| s.reproduce_percent == 100) {
            for strategy in SearchStrategy::ALL {
                let run = simulate(scenario, strategy, 2000, OracleTiming::default()).unwrap();
                assert_eq!(run.result.current, scenario.minimal(), "{}", scenario.name);
                assert!(run.result.flags.fixed_point_reached && run.result.flags.final_confirmed);
                assert!(!run.result.flags.flaky_observed);
            }
        }
    }
}
