//! N devices, simulated with the real [`Scheduler`]: each round runs its jobs on
//! separate devices at once and takes as long as its slowest replay; wasted speculative
//! replays cost device time (counted apart), never budget. With one device this is the
//! sequential run, replay for replay; on any number the search reaches the same result.

use super::oracle::{SimOracle, Timing};
use super::run::{ReplayRecord, Run};
use super::scenario::Scenario;
use whittle_core::engine::EngineError;
use whittle_core::parallel::Scheduler;
use whittle_core::strategy::SearchStrategy;

pub fn simulate_on(
    scenario: &Scenario,
    strategy: SearchStrategy,
    max_replays: u32,
    timing: Timing,
    devices: u32,
) -> Result<Run, EngineError> {
    let devices = devices.max(1);
    let free = usize::try_from(devices).unwrap_or(1);
    let mut scheduler =
        Scheduler::new(strategy.reducer((1..=scenario.steps).collect(), max_replays)?);
    let oracle = SimOracle::new(scenario, timing);
    let mut replays: Vec<ReplayRecord> = Vec::new();
    let mut wall_ms = 0u64;
    let mut rounds = 0u32;
    loop {
        if let Some(result) = scheduler.is_done() {
            return Ok(Run {
                device_ms: replays.iter().map(|r| r.device_ms).sum(),
                result,
                replays,
                devices,
                wasted: scheduler.wasted(),
                rounds,
                wall_ms,
            });
        }
        let jobs = scheduler.dispatch(free);
        let first = replays.len();
        let mut slowest = 0u64;
        for (device, job) in (1u32..).zip(&jobs) {
            // Draws by (candidate, occurrence): the used replays draw as on one device.
            let replay = oracle.replay(&job.candidate, job.occurrence);
            slowest = slowest.max(replay.device_ms);
            replays.push(ReplayRecord {
                phase: job.phase,
                candidate: job.candidate.clone(),
                device_ms: replay.device_ms,
                device,
                round: rounds,
                consumed: false,
            });
            scheduler.complete(job.attempt, replay.outcome);
        }
        for (record, settled) in replays[first..].iter_mut().zip(scheduler.settled()) {
            record.consumed = settled.consumed;
        }
        wall_ms += slowest;
        rounds += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate, suite};

    #[test]
    fn one_device_is_the_sequential_run_and_more_devices_are_faster() {
        for scenario in suite(true) {
            for strategy in SearchStrategy::ALL {
                let seq = simulate(&scenario, strategy, 2000, Timing::default()).unwrap();
                let one = simulate_on(&scenario, strategy, 2000, Timing::default(), 1).unwrap();
                assert_eq!(one.result, seq.result, "{}", scenario.name);
                assert_eq!((one.wasted, one.wall_ms), (0, seq.device_ms));
                let four = simulate_on(&scenario, strategy, 2000, Timing::default(), 4).unwrap();
                assert_eq!(
                    four.replays.iter().filter(|r| r.consumed).count() as u32,
                    four.result.attempts
                );
                assert_eq!(
                    four.replays.iter().filter(|r| !r.consumed).count() as u32,
                    four.wasted
                );
                assert!(four.replays.iter().all(|r| (1..=4).contains(&r.device)));
                assert!(four.wall_ms < seq.device_ms, "{}", scenario.name);
                // Flaky or not: the same result, reached the same way.
                assert_eq!(four.result, seq.result, "{}", scenario.name);
            }
        }
    }
}
