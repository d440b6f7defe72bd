//! N devices, simulated with the real [`Scheduler`] driven as the live run drives it
//! (`whittle-service`'s `run/rounds.rs`): a device takes its next job the moment it is
//! done, and outcomes reach the scheduler in attempt order, so the run's wall-clock is
//! set by when each device is free, not by the slowest replay of a round. A guess the
//! search will not use is stopped the moment that is known, its device free at once.
//! Wasted speculative replays cost device time (counted apart), never budget. With one
//! device this is the sequential run, replay for replay; on any number the search
//! reaches the same result.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::oracle::{OracleTiming, SimOracle};
use super::run::{ReplayRecord, Run};
use super::scenario::Scenario;
use whittle_core::engine::{EngineError, ReplayOutcome};
use whittle_core::parallel::Scheduler;
use whittle_core::strategy::SearchStrategy;

pub fn simulate_on(
    scenario: &Scenario,
    strategy: SearchStrategy,
    max_replays: u32,
    timing: OracleTiming,
    devices: u32,
) -> Result<Run, EngineError> {
    let devices = devices.max(1);
    let mut scheduler =
        Scheduler::new(strategy.reducer((1..=scenario.steps).collect(), max_replays)?);
    let oracle = SimOracle::new(scenario, timing);
    let mut replays: Vec<ReplayRecord> = Vec::new();
    // Jobs running: (finishes at, device, attempt), earliest first (ties by device, so
    // the simulation is deterministic), and each one's key in it by attempt.
    let mut running: BTreeSet<(u64, u32, u32)> = BTreeSet::new();
    let mut running_key: HashMap<u32, (u64, u32, u32)> = HashMap::new();
    let mut idle: Vec<u32> = (1..=devices).rev().collect();
    // Per attempt handed out: its outcome (drawn when it starts) and its record in
    // `replays`.
    let mut outcome_of = HashMap::new();
    let mut record_of = HashMap::new();
    // Jobs handed out whose outcome has not reached the scheduler, with it once known.
    let mut waiting: BTreeMap<u32, Option<ReplayOutcome>> = BTreeMap::new();
    let mut now = 0u64;
    loop {
        if let Some(result) = scheduler.is_done() {
            return Ok(Run {
                device_ms: replays.iter().map(|r| r.device_ms).sum(),
                result,
                replays,
                devices,
                wasted: scheduler.wasted(),
                wall_ms: now,
            });
        }
        for job in scheduler.dispatch(idle.len()) {
            let device = idle.pop().expect("never more jobs than idle devices");
            // Draws by (candidate, occurrence): the used replays draw as on one device.
            let replay = oracle.replay(&job.candidate, job.occurrence);
            let key = (now + replay.device_ms, device, job.attempt);
            running.insert(key);
            running_key.insert(job.attempt, key);
            outcome_of.insert(job.attempt, replay.outcome);
            record_of.insert(job.attempt, replays.len());
            waiting.insert(job.attempt, None);
            replays.push(ReplayRecord {
                phase: job.phase,
                candidate: job.candidate.clone(),
                device_ms: replay.device_ms,
                device,
                speculative: job.speculative,
                consumed: false,
            });
        }
        now = running
            .first()
            .expect("a search that is not done has a job in flight")
            .0;
        // Every device that reports at this instant, before any takes a new job: on
        // the model's whole-millisecond clock ties are common, and a real device never
        // reports at exactly the same time as another.
        while let Some(&(finish, device, attempt)) = running.first() {
            if finish != now {
                break;
            }
            running.pop_first();
            idle.push(device);
            let outcome = outcome_of
                .remove(&attempt)
                .expect("every running job was dispatched");
            // As the live run does: outcomes reach the scheduler in attempt order.
            waiting.insert(attempt, Some(outcome));
        }
        loop {
            while let Some(entry) = waiting.first_entry() {
                let Some(outcome) = entry.get().clone() else {
                    break;
                };
                let attempt = *entry.key();
                entry.remove();
                scheduler.complete(attempt, outcome);
            }
            for settled in scheduler.take_settled() {
                if let Some(&record) = record_of.get(&settled.job.attempt) {
                    replays[record].consumed = settled.consumed;
                }
            }
            // As the live run does: a replay the search will not use is stopped where it
            // is, and its device is free at once.
            let unneeded = scheduler.take_unneeded();
            if unneeded.is_empty() {
                break;
            }
            for attempt in unneeded {
                let Some(key @ (finish, device, _)) = running_key.get(&attempt).copied() else {
                    continue;
                };
                if !running.remove(&key) {
                    continue;
                }
                idle.push(device);
                outcome_of.remove(&attempt);
                if let Some(&record) = record_of.get(&attempt) {
                    // It held its device until now, not until it would have finished.
                    replays[record].device_ms -= finish - now;
                }
                waiting.insert(attempt, Some(ReplayOutcome::Cancelled));
            }
        }
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
                let seq = simulate(&scenario, strategy, 2000, OracleTiming::default()).unwrap();
                let one =
                    simulate_on(&scenario, strategy, 2000, OracleTiming::default(), 1).unwrap();
                assert_eq!(one.result, seq.result, "{}", scenario.name);
                assert_eq!((one.wasted, one.wall_ms), (0, seq.device_ms));
                let four =
                    simulate_on(&scenario, strategy, 2000, OracleTiming::default(), 4).unwrap();
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
