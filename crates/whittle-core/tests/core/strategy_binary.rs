//! The `binary` strategy keeps every proof obligation of the seed (3 consistent
//! negatives per single deletion, 3/3 confirmation, the flaky latch, the budget, the
//! failure handling) and needs fewer replays: within 1.3× the lower bound (median) on
//! the PERF-NOTES cases.

use crate::engine_support;

use engine_support::claims::{check_claims, consistent_negatives, RELIABLE};
use engine_support::oracles::{self, oracle, Kind};
use engine_support::{drive_with as drive, needs_all, verdict, Transcript};
use proptest::prelude::*;
use proptest::sample::subsequence;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use whittle_core::assessment::assess;
use whittle_core::bound::lower_bound;
use whittle_core::model::Confidence;
use whittle_core::strategy::SearchStrategy as Search;
use whittle_core::{EngineError, Phase, ReplayOutcome, ReplayRequest, SearchResult};

fn session_and_kind() -> impl Strategy<Value = (Vec<u32>, Kind)> {
    oracles::session_and_kind(40, 24, 4)
}

/// What any result may claim (as for the seed engine), and the binary search's own rule.
fn check_binary_claims(session: &[u32], budget: u32, t: &Transcript) {
    check_claims(session, budget, t);
    // Verdict reuse: a search replay never repeats a candidate seen reproducing.
    for (at, request) in t.requests.iter().enumerate() {
        if request.phase == Phase::Bisect {
            let seen_hit = t.requests[..at]
                .iter()
                .zip(&t.outcomes)
                .any(|(earlier, o)| {
                    earlier.candidate == request.candidate && *o == ReplayOutcome::Reproduced
                });
            assert!(
                !seen_hit,
                "replayed {:?} though it reproduced before",
                request.candidate
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    #[test]
    fn results_never_claim_more_than_their_evidence(
        (session, kind) in session_and_kind(),
        budget in 1u32..=90,
    ) {
        let t = drive(Search::Binary, &session, budget, &mut oracle(&kind));
        check_binary_claims(&session, budget, &t);
    }

    #[test]
    fn deterministic_oracles_give_a_reproducing_one_minimal_path_with_three_negatives_each(
        (session, kind) in session_and_kind(),
    ) {
        // Only the deterministic shapes; ample budget.
        prop_assume!(matches!(kind, Kind::Monotone { .. } | Kind::Adjacent { .. }));
        let mut check = oracle(&kind);
        let t = drive(Search::Binary, &session, 5000, &mut oracle(&kind));
        let r = &t.result;
        let baseline = check(&ReplayRequest { attempt: 1, phase: Phase::Baseline, candidate: session.clone() });
        prop_assert_eq!(r.baseline_reproduced, baseline == ReplayOutcome::Reproduced);
        if !r.baseline_reproduced {
            return Ok(());
        }
        let probe = |candidate: &[u32], check: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome| {
            check(&ReplayRequest { attempt: 1, phase: Phase::Audit, candidate: candidate.to_vec() })
                == ReplayOutcome::Reproduced
        };
        prop_assert!(probe(&r.current, &mut *check), "the result reproduces");
        prop_assert!(r.flags.fixed_point_reached && r.flags.final_confirmed);
        prop_assert!(!r.flags.budget_exhausted && !r.flags.flaky_observed);
        for row in &r.proof {
            prop_assert!(consistent_negatives(&row.outcomes));
            prop_assert!(!probe(&row.candidate, &mut *check), "1-minimal");
        }
        if let Kind::Monotone { essential } = &kind {
            prop_assert_eq!(&r.current, essential);
        }
        prop_assert_eq!(assess(r, RELIABLE).confidence, Some(Confidence::High));
    }

    #[test]
    fn never_more_replays_than_the_budget_and_a_cut_search_says_so(
        (session, essential) in subsequence((1u32..=40).collect::<Vec<_>>(), 1..=30)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 1..=n.min(4))) }),
        budget in 1u32..=40,
    ) {
        let ample = drive(Search::Binary, &session, 5000, &mut needs_all(essential.clone()));
        let t = drive(Search::Binary, &session, budget, &mut needs_all(essential.clone()));
        prop_assert!(t.result.attempts <= budget);
        if ample.result.attempts <= budget {
            prop_assert_eq!(&t.result, &SearchResult { max_replays: budget, ..ample.result.clone() });
        } else {
            prop_assert_eq!(t.result.attempts, budget);
            prop_assert!(t.result.flags.budget_exhausted);
            prop_assert_ne!(assess(&t.result, RELIABLE).confidence, Some(Confidence::High));
            // The same requests as the unlimited run, cut at the budget.
            prop_assert_eq!(&t.requests[..], &ample.requests[..budget as usize]);
        }
    }
}

#[test]
fn within_1_3_times_the_lower_bound_on_the_perf_notes_cases() {
    let cases = [
        (8, 1),
        (8, 3),
        (16, 2),
        (16, 3),
        (32, 3),
        (64, 3),
        (128, 3),
        (128, 5),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (n, k) in cases {
        let session: Vec<u32> = (1..=n).collect();
        let mut binary = Vec::new();
        let mut seed = Vec::new();
        for _ in 0..20 {
            let mut essential: Vec<u32> = session
                .choose_multiple(&mut rng, k as usize)
                .copied()
                .collect();
            essential.sort_unstable();
            let b = drive(
                Search::Binary,
                &session,
                5000,
                &mut needs_all(essential.clone()),
            )
            .result;
            assert_eq!(b.current, essential);
            assert_eq!(assess(&b, RELIABLE).confidence, Some(Confidence::High));
            binary.push(b.attempts);
            seed.push(
                drive(Search::Seed, &session, 5000, &mut needs_all(essential))
                    .result
                    .attempts,
            );
        }
        binary.sort_unstable();
        seed.sort_unstable();
        let (median, seed_median) = (binary[10], seed[10]);
        let bound = lower_bound(n, k);
        assert!(
            f64::from(median) <= 1.3 * f64::from(bound),
            "n={n} k={k}: median {median} > 1.3 × {bound}"
        );
        assert!(
            median <= seed_median,
            "n={n} k={k}: {median} vs seed {seed_median}"
        );
        eprintln!("n={n} k={k}: bound {bound}, binary {median}, seed {seed_median}");
    }
}

#[test]
fn same_input_checks_as_the_seed_engine() {
    assert_eq!(
        Search::Binary.reducer(vec![1, 2], 0).err(),
        Some(EngineError::InvalidBudget { max_replays: 0 })
    );
    assert_eq!(
        Search::Binary.reducer(vec![1, 2, 1], 5).err(),
        Some(EngineError::DuplicateStep { step: 1 })
    );
}

#[test]
fn an_example_search_in_full() {
    // Crash needs steps 3 and 6 of 1..=8.
    let t = drive(
        Search::Binary,
        &(1..=8).collect::<Vec<_>>(),
        30,
        &mut needs_all(vec![3, 6]),
    );
    let asked: Vec<(Phase, Vec<u32>)> = t
        .requests
        .iter()
        .map(|r| (r.phase, r.candidate.clone()))
        .collect();
    use Phase::*;
    assert_eq!(
        asked,
        vec![
            (Baseline, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            // Shortest reproducing prefix: 6 is the last essential step.
            (Bisect, vec![1, 2, 3, 4]),
            (Bisect, vec![1, 2, 3, 4, 5, 6]),
            (Bisect, vec![1, 2, 3, 4, 5]),
            // 6 is needed. Is 6 alone enough? No, so search 1..=5 before it.
            (Bisect, vec![6]),
            (Bisect, vec![1, 2, 3, 6]),
            (Bisect, vec![1, 2, 6]),
            // 3 is needed; [3, 6] alone reproduces: the search ends.
            (Bisect, vec![3, 6]),
            // [6] already failed once in the search: two more negatives prove it.
            (Audit, vec![6]),
            (Audit, vec![6]),
            (Audit, vec![3]),
            (Audit, vec![3]),
            (Audit, vec![3]),
            // [3, 6] reproduced in the search: two more confirmations.
            (Confirm, vec![3, 6]),
            (Confirm, vec![3, 6]),
        ]
    );
    assert_eq!(t.result.current, vec![3, 6]);
    assert_eq!(
        assess(&t.result, RELIABLE).confidence,
        Some(Confidence::High)
    );
}

#[test]
fn a_flaky_final_candidate_is_never_high() {
    // The final candidate reproduces, then fails once during confirmation.
    let mut hits_of_final = 0;
    let mut flaky = |r: &ReplayRequest| {
        if r.candidate == [2] {
            hits_of_final += 1;
            verdict(hits_of_final != 2)
        } else {
            verdict(r.candidate.contains(&2))
        }
    };
    let r = drive(Search::Binary, &[1, 2, 3], 30, &mut flaky).result;
    assert_eq!(r.current, vec![2]);
    assert!(r.flags.flaky_observed && !r.flags.final_confirmed);
    assert_eq!(assess(&r, RELIABLE).confidence, Some(Confidence::Medium));
}
