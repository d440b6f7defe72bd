//! `--baseline-tries N`: the full path is replayed up to N times until it reproduces,
//! every try counted against the budget, a miss then a hit latching flaky. The default
//! (1) is the seed's behaviour, attempt for attempt.

use crate::engine_support;

use engine_support::claims::check_claims_with_tries;
use engine_support::oracles::{self, oracle, Kind};
use engine_support::reference::reference_minimize;
use engine_support::{drive_options, drive_with, scripted, Transcript};
use proptest::prelude::*;
use whittle_core::strategy::{SearchOptions, SearchStrategy as Search};
use whittle_core::{EngineError, Phase, ReplayOutcome};

fn tries(n: u32) -> SearchOptions {
    SearchOptions { baseline_tries: n }
}

fn any_strategy() -> impl Strategy<Value = Search> {
    prop::sample::select(Search::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn one_try_is_the_seed_attempt_for_attempt(
        (session, kind) in oracles::session_and_kind(24, 16, 3),
        budget in 1u32..=90,
    ) {
        let options = drive_options(Search::Seed, tries(1), &session, budget, &mut oracle(&kind));
        let reference = reference_minimize(&session, budget, &mut oracle(&kind));
        prop_assert_eq!(&options.requests, &reference.requests);
        prop_assert_eq!(&options.outcomes, &reference.outcomes);
        prop_assert_eq!(&options.result, &reference.result);
        prop_assert_eq!(SearchOptions::default(), tries(1));
    }

    #[test]
    fn the_full_path_is_retried_until_it_reproduces(
        (session, kind) in oracles::session_and_kind(24, 16, 3),
        budget in 1u32..=90,
        n in 1u32..=6,
        strategy in any_strategy(),
    ) {
        let t: Transcript = drive_options(strategy, tries(n), &session, budget, &mut oracle(&kind));
        check_claims_with_tries(&session, budget, n as usize, &t);
        let r = &t.result;
        // The run opens with up to n replays of the full path, up to its first hit (the
        // flaky strategy's calibration samples of the full path come after it).
        let leading = t
            .requests
            .iter()
            .zip(&t.outcomes)
            .take_while(|(q, _)| q.phase == Phase::Baseline && q.candidate == session)
            .count();
        let first_hit = t.outcomes.iter().position(|o| *o == ReplayOutcome::Reproduced);
        let opening = first_hit.map_or(leading, |at| (at + 1).min(leading));
        let baseline: Vec<&ReplayOutcome> = t.outcomes[..opening].iter().take(n as usize).collect();
        prop_assert!(!baseline.is_empty());
        let (last, misses) = baseline.split_last().unwrap();
        let missed = |o: &&ReplayOutcome| matches!(o, ReplayOutcome::NotReproduced { .. });
        prop_assert!(misses.iter().all(missed), "a try after a hit");
        if r.baseline_reproduced {
            prop_assert_eq!(*last, &ReplayOutcome::Reproduced);
            // A miss then a hit of the same candidate is the seed's flaky latch.
            if !misses.is_empty() {
                prop_assert!(r.flags.flaky_observed);
            }
        } else if missed(last) {
            // Every try missed, or the budget ran out first.
            prop_assert!(baseline.len() == n as usize || r.attempts == budget);
            prop_assert_eq!(t.requests.len(), baseline.len());
        }
        if !matches!(kind, Kind::FailsAt { .. }) {
            prop_assert!(r.attempts as usize == t.requests.len());
        }
    }
}

#[test]
fn a_miss_then_a_hit_latches_flaky_and_every_try_is_charged() {
    // Full path misses twice, then every replay reproduces.
    let mut script = scripted(vec![false, false]);
    let mut answered = 0;
    let mut oracle = |r: &whittle_core::ReplayRequest| {
        answered += 1;
        if answered <= 2 {
            script(r)
        } else {
            ReplayOutcome::Reproduced
        }
    };
    let t = drive_options(Search::Seed, tries(3), &[1, 2], 30, &mut oracle);
    assert_eq!(
        t.requests[..3]
            .iter()
            .map(|r| (r.attempt, r.phase))
            .collect::<Vec<_>>(),
        vec![
            (1, Phase::Baseline),
            (2, Phase::Baseline),
            (3, Phase::Baseline)
        ]
    );
    assert!(t.result.baseline_reproduced && t.result.flags.flaky_observed);
    // Two tries and a budget of two: no third try, no search.
    let mut two_misses = scripted(vec![false, false]);
    let t = drive_options(Search::Seed, tries(3), &[1, 2], 2, &mut two_misses);
    assert_eq!((t.requests.len(), t.result.attempts), (2, 2));
    assert!(!t.result.baseline_reproduced && t.result.flags.budget_exhausted);
    // One try (the seed): a miss ends the run.
    let mut one_miss = scripted(vec![false, true]);
    let t = drive_with(Search::Seed, &[1, 2], 30, &mut one_miss);
    assert_eq!(t.requests.len(), 1);
    assert!(!t.result.baseline_reproduced);
}

#[test]
fn zero_tries_are_refused_before_anything_runs() {
    for strategy in Search::ALL {
        assert_eq!(
            strategy.reducer_with(vec![1, 2], 30, tries(0)).err(),
            Some(EngineError::InvalidBaselineTries { tries: 0 })
        );
    }
}
