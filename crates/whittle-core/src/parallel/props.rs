//! Property tests: on N devices the reducer consumes exactly the 1-device sequence, the
//! budget covers every replay that ran, and the seed's guarantees hold.

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
/// triggered crash show only sometimes (one draw per replay, in attempt order).
struct Oracle {
    essential: Vec<u32>,
    percent: u32,
    rng: ChaCha8Rng,
}

impl Oracle {
    fn answer(&mut self, candidate: &[u32]) -> ReplayOutcome {
        let triggered = self.essential.iter().all(|s| candidate.contains(s));
        if triggered && self.rng.gen_range(0..100) < self.percent {
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
    oracle: &mut Oracle,
) -> (SearchResult, Consumed) {
    let mut engine = strategy.reducer((1..=n).collect(), max).unwrap();
    let mut log = Vec::new();
    loop {
        match engine.next_request() {
            Request::Done(result) => return (result, log),
            Request::Replay(r) => {
                let outcome = oracle.answer(&r.candidate);
                log.push((r.phase, r.candidate, outcome.clone()));
                engine.record(outcome);
            }
        }
    }
}

struct Parallel {
    result: SearchResult,
    /// Every replay that ran (used or wasted), with its verdict.
    all: Vec<(Vec<u32>, ReplayOutcome)>,
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
    oracle: &mut Oracle,
) -> Parallel {
    let mut scheduler = Scheduler::new(strategy.reducer((1..=n).collect(), max).unwrap());
    let mut consumed = Vec::new();
    let mut ran = 0u32;
    let mut attempts_seen = Vec::new();
    let mut all = Vec::new();
    loop {
        if let Some(result) = scheduler.is_done() {
            return Parallel {
                result,
                all,
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
            let outcome = oracle.answer(&job.candidate);
            all.push((job.candidate.clone(), outcome.clone()));
            scheduler.complete(job.attempt, outcome);
        }
        for s in scheduler.settled().iter().filter(|s| s.consumed) {
            consumed.push((s.job.phase, s.job.candidate.clone(), s.outcome.clone()));
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn deterministic_oracles_consume_the_one_device_sequence(
        n in 1u32..24,
        picks in proptest::collection::vec(0u32..1000, 0..4),
        max in 1u32..120,
        devices in 1usize..=5,
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let essential = essential_set(n, &picks);
        let oracle = || Oracle { essential: essential.clone(), percent: 100, rng: ChaCha8Rng::seed_from_u64(1) };
        let (seq, seq_log) = sequential(strategy, n, max, &mut oracle());
        let par = parallel(strategy, n, max, devices, &mut oracle());

        // The consumed sequence is the 1-device one, cut where the budget ran out.
        prop_assert!(par.consumed.len() <= seq_log.len());
        prop_assert_eq!(&par.consumed[..], &seq_log[..par.consumed.len()]);
        // Every replay that ran is charged; none beyond the budget.
        prop_assert_eq!(par.ran, par.result.attempts);
        prop_assert_eq!(par.ran, par.consumed.len() as u32 + par.wasted);
        prop_assert!(par.result.attempts <= max);
        // Attempt numbers are unique and increasing.
        prop_assert!(par.attempts_seen.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(confirmed_only_with_three_of_three(&par.result));
        if devices == 1 {
            prop_assert_eq!(par.wasted, 0);
        }
        if seq.attempts + par.wasted < max {
            let mut expected = seq.clone();
            expected.attempts += par.wasted;
            prop_assert_eq!(&par.result, &expected);
        }
    }

    #[test]
    fn flaky_oracles_keep_the_latch_and_the_budget(
        n in 1u32..20,
        picks in proptest::collection::vec(0u32..1000, 1..3),
        max in 1u32..80,
        devices in 1usize..=5,
        percent in 30u32..95,
        seed in any::<u64>(),
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
    ) {
        let mut oracle = Oracle { essential: essential_set(n, &picks), percent, rng: ChaCha8Rng::seed_from_u64(seed) };
        let par = parallel(strategy, n, max, devices, &mut oracle);
        prop_assert!(par.result.attempts <= max);
        prop_assert_eq!(par.ran, par.result.attempts);
        prop_assert!(confirmed_only_with_three_of_three(&par.result));
        // Mixed verdicts for one candidate among every replay that ran, wasted ones
        // included, latch the flag.
        let mixed = par.all.iter().any(|(c, o)| {
            par.all.iter().any(|(d, p)| c == d && (*o == ReplayOutcome::Reproduced) != (*p == ReplayOutcome::Reproduced))
        });
        prop_assert_eq!(par.result.flags.flaky_observed, mixed);
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
    assert_eq!((result.attempts, s.wasted()), (3, 2));
    assert_eq!(
        result.stop,
        Some(SearchStop::RuntimeFailed { cause: adb() })
    );
    assert_eq!(s.settled().iter().filter(|x| x.consumed).count(), 1);
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
