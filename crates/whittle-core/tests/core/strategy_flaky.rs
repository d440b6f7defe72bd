//! The `flaky` strategy: every claim the seed's rules allow and no more (never high),
//! a hit is the only way a step leaves, every kept step's deletion is sampled until it
//! separates from the crash rate (or the cap), and on a deterministic crash it finds
//! the same 1-minimal path as the seed.

use crate::engine_support;

use engine_support::claims::{check_claims, consistent_negatives, RELIABLE};
use engine_support::oracles::{self, contains_all, oracle};
use engine_support::{drive_with, needs_all, verdict, Transcript};
use proptest::prelude::*;
use proptest::sample::subsequence;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use whittle_core::assessment::{assess, Warning};
use whittle_core::engine::StatisticalProof;
use whittle_core::model::Confidence;
use whittle_core::rate::Rate;
use whittle_core::strategy::{SearchStrategy as Search, CALIBRATION_RUNS, DEFAULT_SAMPLE_CAP};
use whittle_core::{EngineError, Phase, ReplayOutcome, ReplayRequest};

fn drive(
    session: &[u32],
    budget: u32,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    drive_with(Search::Flaky, session, budget, oracle)
}

/// The crash needs every essential step and then shows `percent` % of the time.
fn flaky_needs_all(
    essential: Vec<u32>,
    percent: u32,
    seed: u64,
) -> impl FnMut(&ReplayRequest) -> ReplayOutcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |r| {
        let roll = rng.gen_range(0..100);
        verdict(contains_all(&r.candidate, &essential) && roll < percent)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn results_never_claim_more_than_their_evidence(
        (session, kind) in oracles::session_and_kind(40, 24, 4),
        budget in 1u32..=150,
    ) {
        let t = drive(&session, budget, &mut oracle(&kind));
        check_claims(&session, budget, &t);
        // Never high, whatever the oracle: misses of a flaky crash are not proof.
        prop_assert_ne!(assess(&t.result, RELIABLE).confidence, Some(Confidence::High));
        prop_assert_eq!(
            t.result.statistical,
            Some(StatisticalProof { confidence_percent: 95, cap: DEFAULT_SAMPLE_CAP })
        );
    }

    #[test]
    fn never_high_on_a_flaky_oracle_and_never_removes_an_essential_step(
        (session, essential) in subsequence((1u32..=40).collect::<Vec<_>>(), 1..=32)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 0..=n.min(3))) }),
        percent in 30u32..100,
        seed in any::<u64>(),
        budget in 1u32..=400,
    ) {
        let t = drive(&session, budget, &mut flaky_needs_all(essential.clone(), percent, seed));
        let r = &t.result;
        check_claims(&session, budget, &t);
        prop_assert_ne!(assess(r, RELIABLE).confidence, Some(Confidence::High));
        if r.baseline_reproduced {
            // Only a live hit removes a step, and nothing without every essential step hits.
            prop_assert!(contains_all(&r.current, &essential), "{:?} lost one of {:?}", r.current, essential);
            // Every answer was the oracle's; each kept step's deletion has its misses.
            if r.flags.fixed_point_reached {
                for row in &r.proof {
                    prop_assert!(consistent_negatives(&row.outcomes));
                    prop_assert!(row.outcomes.len() <= DEFAULT_SAMPLE_CAP as usize);
                }
            }
        }
    }

    #[test]
    fn a_deterministic_crash_gives_the_one_minimal_path_at_medium(
        (session, essential) in subsequence((1u32..=40).collect::<Vec<_>>(), 0..=24)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 0..=n.min(4))) }),
    ) {
        let t = drive(&session, 5000, &mut needs_all(essential.clone()));
        let r = &t.result;
        prop_assert_eq!(&r.current, &essential);
        prop_assert!(r.flags.fixed_point_reached && r.flags.final_confirmed);
        prop_assert!(!r.flags.budget_exhausted && !r.flags.flaky_observed);
        let a = assess(r, RELIABLE);
        prop_assert_eq!(a.confidence, Some(Confidence::Medium));
        prop_assert!(a.converged);
        // Nothing is left unseparated on a crash that always shows.
        let statistical = a.warnings.iter().find_map(|w| match w {
            Warning::Statistical { unseparated, .. } => Some(unseparated.clone()),
            _ => None,
        });
        prop_assert_eq!(statistical, Some(vec![]));
    }
}

#[test]
fn the_full_path_is_calibrated_before_the_search() {
    let t = drive(
        &(1..=8).collect::<Vec<_>>(),
        100,
        &mut needs_all(vec![3, 6]),
    );
    let phases: Vec<Phase> = t.requests.iter().map(|r| r.phase).collect();
    assert_eq!(
        phases[..CALIBRATION_RUNS],
        [Phase::Baseline; CALIBRATION_RUNS]
    );
    assert!(t.requests[..CALIBRATION_RUNS]
        .iter()
        .all(|r| r.candidate == (1..=8).collect::<Vec<_>>()));
    assert_ne!(t.requests[CALIBRATION_RUNS].phase, Phase::Baseline);
    assert_eq!(t.result.current, vec![3, 6]);
}

#[test]
fn each_kept_step_is_sampled_until_it_separates_from_the_crash_rate() {
    // A crash needing steps 5 and 12 of 16 that shows half the time.
    let (mut rows, mut separated, mut misses, mut runs, mut extra) = (0, 0, 0, 0, 0);
    for seed in 0..60 {
        let session: Vec<u32> = (1..=16).collect();
        let t = drive(&session, 2000, &mut flaky_needs_all(vec![5, 12], 50, seed));
        let r = &t.result;
        if !r.baseline_reproduced {
            // One try of the full path: a miss ends the run, as the seed's does.
            assert_eq!(r.attempts, 1);
            continue;
        }
        assert!(contains_all(&r.current, &[5, 12]), "seed {seed}");
        runs += 1;
        if r.current.len() > 2 {
            // A step kept by chance: its deletion missed every time although it crashes.
            extra += 1;
        }
        let crash_rate = r.crash_rate(0.95);
        let mut unseparated = Vec::new();
        for row in &r.proof {
            rows += 1;
            assert!(row.outcomes.len() >= 3, "seed {seed}: {row:?}");
            misses += row.outcomes.len();
            if Rate::of(&row.outcomes, 0.95).separated_below(&crash_rate) {
                separated += 1;
            } else {
                unseparated.push(row.removed_step);
            }
        }
        // The report names exactly the deletions whose interval did not separate.
        let a = assess(r, RELIABLE);
        assert_eq!(a.confidence, Some(Confidence::Medium));
        assert!(a.warnings.contains(&Warning::Statistical {
            confidence_percent: 95,
            cap: DEFAULT_SAMPLE_CAP,
            unseparated,
        }));
    }
    assert!(rows >= 40, "{rows}");
    assert!(
        extra * 10 <= runs,
        "{extra} of {runs} runs kept a step not needed"
    );
    // More misses than the seed's 3 on average: at 50 %, 3 misses happen 1 time in 8.
    assert!(misses >= 5 * rows, "{misses} misses over {rows} deletions");
    assert!(
        separated * 10 >= rows * 9,
        "{separated} of {rows} separated"
    );
}

#[test]
fn refuses_a_confidence_or_cap_it_cannot_honour() {
    use whittle_core::strategy::FlakySearch;
    assert!(FlakySearch::new(0.95, 20).is_ok());
    for (confidence, cap) in [(0.5, 20), (1.0, 20), (f64::NAN, 20), (0.95, 2)] {
        assert!(
            matches!(
                FlakySearch::new(confidence, cap),
                Err(EngineError::InvalidSampling { .. })
            ),
            "{confidence} {cap}"
        );
    }
    assert_eq!(
        Search::Flaky.reducer(vec![1, 1], 5).err(),
        Some(EngineError::DuplicateStep { step: 1 })
    );
}
