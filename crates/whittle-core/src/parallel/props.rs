//! Property tests: on N devices the reducer consumes exactly the 1-device sequence and
//! reaches exactly the 1-device result (attempts, minimal path, confidence inputs and
//! flags), for every strategy, deterministic and flaky apps alike; wasted speculation
//! stays under its own limit and outside the budget.

use proptest::prelude::*;

use super::Scheduler;
use crate::engine::{
    FailureCause, MissReason, Phase, ReplayOutcome, Request, SearchResult, SearchStop,
    HIGH_CONFIDENCE_RUNS,
};
use crate::strategy::SearchStrategy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Consumed = Vec<(Phase, Vec<u32>, ReplayOutcome)>;

/// Reproduces when every essential step is in the candidate; `percent` < 100 makes a
/// triggered crash show only sometimes: one draw per (candidate, how many times it was
/// answered before), so a replay the search uses sees the same draw on any number of
/// devices.
struct Oracle {
    essential: Vec<u32>,
    percent: u32,
    seed: u64,
}

impl Oracle {
    fn answer(&self, candidate: &[u32], occurrence: u32) -> ReplayOutcome {
        use std::hash::{Hash, Hasher};
        let triggered = self.essential.iter().all(|s| candidate.contains(s));
        let mut key = std::collections::hash_map::DefaultHasher::new();
        (self.seed, candidate, occurrence).hash(&mut key);
        let mut rng = ChaCha8Rng::seed_from_u64(key.finish());
        if triggered && rng.gen_range(0..100) < self.percent {
            ReplayOutcome::Reproduced
        } else {
            ReplayOutcome::NotReproduced {
                reason: MissReason::NoCrash,
            }
        }
    }
}

fn sequential(
    strategy: SearchStrategy,
    n: u32,
    max: u32,
    oracle: &Oracle,
) -> (SearchResult, Consumed) {
    let mut engine = strategy.reducer((1..=n).collect(), max).unwrap();
    let mut log = Vec::new();
    loop {
        match engine.next_request() {
            Request::Done(result) => return (result, log),
            Request::Replay(r) => {
                // The oracle answers only verdicts, so this is every replay of it so far.
                let before = u32::try_from(engine.verdicts_for(&r.candidate)).unwrap();
                let outcome = oracle.answer(&r.candidate, before);
                log.push((r.phase, r.candidate, outcome.clone()));
                engine.record(outcome);
            }
        }
    }
}

struct Parallel {
    result: SearchResult,
    consumed: Consumed,
    ran: u32,
    wasted: u32,
    attempts_seen: Vec<u32>,
}

fn parallel(
    strategy: SearchStrategy,
    n: u32,
    max: u32,
    devices: usize,
    oracle: &Oracle,
) -> Parallel {
    let mut scheduler = Scheduler::new(strategy.reducer((1..=n).collect(), max).unwrap());
    let mut consumed = Vec::new();
    let mut ran = 0u32;
    let mut attempts_seen = Vec::new();
    loop {
        if let Some(result) = scheduler.is_done() {
            return Parallel {
                result,
                consumed,
                ran,
                wasted: scheduler.wasted(),
                attempts_seen,
            };
        }
        let jobs = scheduler.dispatch(devices);
        assert!(!jobs.is_empty() && jobs.len() <= devices);
        assert!(!jobs[0].speculative && jobs[1..].iter().all(|j| j.speculative));
        for job in &jobs {
            ran += 1;
            attempts_seen.push(job.attempt);
            let outcome = oracle.answer(&job.candidate, job.occurrence);
            scheduler.complete(job.attempt, outcome);
        }
        for s in scheduler.take_settled().iter().filter(|s| s.consumed) {
            consumed.push((s.job.phase, s.job.candidate.clone(), s.outcome.clone()));
        }
    }
}

/// Streaming: each device takes a new job as soon as it reports, and replays take
/// random times (seeded by `timing`), so devices report out of attempt order. With
/// `stop`, a job found unneeded is stopped at once and reported cancelled, as the live
/// run does.
fn streaming(
    strategy: SearchStrategy,
    n: u32,
    max: u32,
    devices: usize,
    oracle: &Oracle,
    (timing, stop): (u64, bool),
) -> Parallel {
    let mut scheduler = Scheduler::new(strategy.reducer((1..=n).collect(), max).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(timing);
    let mut running: Vec<(u64, super::Job)> = Vec::new();
    let mut now = 0u64;
    let mut consumed = Vec::new();
    let mut ran = 0u32;
    let mut attempts_seen = Vec::new();
    loop {
        if let Some(result) = scheduler.is_done() {
            assert!(running.is_empty());
            return Parallel {
                result,
                consumed,
                ran,
                wasted: scheduler.wasted(),
                attempts_seen,
            };
        }
        for job in scheduler.dispatch(devices - running.len()) {
            attempts_seen.push(job.attempt);
            running.push((now + rng.gen_range(1..100), job));
        }
        assert!(running.len() <= devices);
        assert_eq!(scheduler.in_flight(), running.len());
        let next = (0..running.len())
            .min_by_key(|&i| running[i].0)
            .expect("a search that is not done has a job in flight");
        let (finish, job) = running.swap_remove(next);
        now = finish;
        ran += 1;
        scheduler.complete(job.attempt, oracle.answer(&job.candidate, job.occurrence));
        loop {
            for s in scheduler.take_settled().iter().filter(|s| s.consumed) {
                consumed.push((s.job.phase, s.job.candidate.clone(), s.outcome.clone()));
            }
            let unneeded = scheduler.take_unneeded();
            if !stop || unneeded.is_empty() {
                break;
            }
            for attempt in unneeded {
                assert!(scheduler.is_unneeded(attempt));
                let Some(at) = running.iter().position(|(_, j)| j.attempt == attempt) else {
                    continue;
                };
                running.swap_remove(at);
                ran += 1;
                scheduler.complete(attempt, ReplayOutcome::Cancelled);
                assert!(!scheduler.is_unneeded(attempt));
            }
        }
    }
}

fn essential_set(n: u32, picks: &[u32]) -> Vec<u32> {
    let mut e: Vec<u32> = picks.iter().map(|p| 1 + p % n).collect();
    e.sort_unstable();
    e.dedup();
    e
}

fn confirmed_only_with_three_of_three(result: &SearchResult) -> bool {
    !result.flags.final_confirmed
        || (result.final_outcomes().len() >= HIGH_CONFIDENCE_RUNS
            && result.final_outcomes().iter().all(|&r| r))
}

/// On 1, 2, 4 and 8 devices: what must not depend on the number of devices.
fn same_on_every_device_count(
    strategy: SearchStrategy,
    n: u32,
    max: u32,
    oracle: &Oracle,
) -> Result<(), TestCaseError> {
    let (seq, seq_log) = sequential(strategy, n, max, oracle);
    for devices in [1, 2, 4, 8] {
        let par = parallel(strategy, n, max, devices, oracle);
        prop_assert_eq!(&par.consumed, &seq_log);
        prop_assert_eq!(&par.result, &seq);
        // Every replay that ran is either used (and in the budget) or wasted (apart).
        prop_assert_eq!(par.ran, par.result.attempts + par.wasted);
        prop_assert!(par.result.attempts <= max);
        prop_assert!(par.wasted <= max, "speculation over its limit");
        if devices == 1 {
            prop_assert_eq!(par.wasted, 0);
        }
        // Attempt numbers are unique and increasing.
        prop_assert!(par.attempts_seen.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(confirmed_only_with_three_of_three(&par.result));
    }
    Ok(())
}

/// The same, streaming: devices report out of order, each takes the next job at once.
fn same_when_streaming(
    strategy: SearchStrategy,
    n: u32,
    max: u32,
    oracle: &Oracle,
    timing: (u64, bool),
) -> Result<(), TestCaseError> {
    let (seq, seq_log) = sequential(strategy, n, max, oracle);
    for devices in [1, 2, 4, 8] {
        let par = streaming(strategy, n, max, devices, oracle, timing);
        prop_assert_eq!(&par.consumed, &seq_log, "{} devices", devices);
        prop_assert_eq!(&par.result, &seq);
        prop_assert_eq!(par.ran, par.result.attempts + par.wasted);
        prop_assert!(par.wasted <= max, "speculation over its limit");
        if devices == 1 {
            prop_assert_eq!(par.wasted, 0);
        }
        prop_assert!(par.attempts_seen.windows(2).all(|w| w[0] < w[1]));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn deterministic_oracles_reach_the_one_device_result_on_any_number(
        n in 1u32..24,
        picks in proptest::collection::vec(0u32..1000, 0..4),
        max in 1u32..120,
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let oracle = Oracle { essential: essential_set(n, &picks), percent: 100, seed: 1 };
        same_on_every_device_count(strategy, n, max, &oracle)?;
    }

    #[test]
    fn flaky_oracles_with_the_same_draws_reach_the_one_device_result(
        n in 1u32..20,
        picks in proptest::collection::vec(0u32..1000, 1..3),
        max in 1u32..80,
        percent in 30u32..95,
        seed in any::<u64>(),
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let oracle = Oracle { essential: essential_set(n, &picks), percent, seed };
        same_on_every_device_count(strategy, n, max, &oracle)?;
    }

    #[test]
    fn streaming_out_of_order_and_stopping_unneeded_jobs_reaches_the_one_device_result(
        n in 1u32..20,
        picks in proptest::collection::vec(0u32..1000, 0..3),
        max in 1u32..80,
        percent in prop::sample::select(vec![100u32, 40, 70, 90]),
        seed in any::<u64>(),
        timing in any::<u64>(),
        stop in any::<bool>(),
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let oracle = Oracle { essential: essential_set(n, &picks), percent, seed };
        same_when_streaming(strategy, n, max, &oracle, (timing, stop))?;
    }

    #[test]
    fn the_speculation_limit_caps_the_waste_and_never_the_result(
        n in 2u32..20,
        picks in proptest::collection::vec(0u32..1000, 1..3),
        limit in 0u32..6,
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let oracle = Oracle { essential: essential_set(n, &picks), percent: 100, seed: 7 };
        let (seq, seq_log) = sequential(strategy, n, 200, &oracle);
        let mut scheduler = Scheduler::new(strategy.reducer((1..=n).collect(), 200).unwrap())
            .with_speculation_limit(limit);
        let mut consumed = Vec::new();
        let result = loop {
            if let Some(result) = scheduler.is_done() {
                break result;
            }
            for job in scheduler.dispatch(8) {
                scheduler.complete(job.attempt, oracle.answer(&job.candidate, job.occurrence));
            }
            for s in scheduler.take_settled().iter().filter(|s| s.consumed) {
                consumed.push((s.job.phase, s.job.candidate.clone(), s.outcome.clone()));
            }
        };
        prop_assert!(scheduler.wasted() <= limit);
        prop_assert_eq!(&consumed, &seq_log);
        prop_assert_eq!(&result, &seq);
    }
}

#[test]
fn four_devices_take_fewer_rounds_than_one_on_a_long_path() {
    let rounds = |devices: usize| {
        let mut scheduler = Scheduler::new(
            SearchStrategy::Seed
                .reducer((1..=32).collect(), 2000)
                .unwrap(),
        );
        let mut rounds = 0;
        while scheduler.is_done().is_none() {
            rounds += 1;
            for job in scheduler.dispatch(devices) {
                let hit = [5, 20].iter().all(|s| job.candidate.contains(s));
                let outcome = if hit {
                    ReplayOutcome::Reproduced
                } else {
                    ReplayOutcome::NotReproduced {
                        reason: MissReason::NoCrash,
                    }
                };
                scheduler.complete(job.attempt, outcome);
            }
        }
        let result = scheduler.is_done().unwrap();
        assert_eq!(result.current, vec![5, 20]);
        assert!(result.flags.final_confirmed && result.flags.fixed_point_reached);
        rounds
    };
    let (one, four) = (rounds(1), rounds(4));
    assert!(four * 2 < one, "1 device: {one} rounds, 4 devices: {four}");
}

#[test]
fn capture_missing_is_never_charged_and_a_runtime_error_wastes_the_rest() {
    // Capture gone before the round: nothing ran, nothing is charged.
    let mut s = Scheduler::new(SearchStrategy::Seed.reducer(vec![1, 2, 3, 4], 30).unwrap());
    let jobs = s.dispatch(3);
    assert_eq!(jobs.len(), 3);
    for job in &jobs {
        s.complete(job.attempt, ReplayOutcome::CaptureMissing { cause: gone() });
    }
    let result = s.is_done().unwrap();
    assert_eq!((result.attempts, s.wasted()), (0, 0));
    assert_eq!(
        result.stop,
        Some(SearchStop::CaptureFailed { cause: gone() })
    );
    assert!(s.dispatch(3).is_empty());

    // A runtime error in the round's first job ends the search; the 2 others ran.
    let mut s = Scheduler::new(SearchStrategy::Seed.reducer(vec![1, 2, 3, 4], 30).unwrap());
    let jobs = s.dispatch(3);
    s.complete(jobs[0].attempt, ReplayOutcome::Failed { cause: adb() });
    assert!(s.is_done().is_none(), "round still running");
    for job in &jobs[1..] {
        s.complete(job.attempt, ReplayOutcome::Reproduced);
    }
    let result = s.is_done().unwrap();
    assert_eq!(
        (result.attempts, s.wasted()),
        (1, 2),
        "the budget counts the one used; the two others ran, apart"
    );
    assert_eq!(
        result.stop,
        Some(SearchStop::RuntimeFailed { cause: adb() })
    );
    assert_eq!(s.take_settled().iter().filter(|x| x.consumed).count(), 1);
}

#[test]
fn a_round_never_exceeds_the_budget_left() {
    let mut s = Scheduler::new(SearchStrategy::Seed.reducer((1..=8).collect(), 2).unwrap());
    let jobs = s.dispatch(5);
    assert_eq!(jobs.len(), 2);
    assert_eq!(
        jobs.iter().map(|j| j.attempt).collect::<Vec<_>>(),
        vec![1, 2]
    );
}

fn gone() -> FailureCause {
    FailureCause::Capture {
        device: None,
        detail: "gone".into(),
    }
}

fn adb() -> FailureCause {
    FailureCause::Tool {
        step: None,
        detail: "adb".into(),
    }
}
