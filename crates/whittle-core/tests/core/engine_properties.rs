//! Property tests: the state machine against the literal reference transcription, and
//! the claims a result may make, over random sessions and oracles.

use crate::engine_support;

use engine_support::claims::{check_claims, consistent_negatives, RELIABLE};
use engine_support::oracles::{self, contains_all, oracle, Kind};
use engine_support::reference::reference_minimize;
use engine_support::{capture_vanished, device_disconnected, drive, Transcript};
use proptest::prelude::*;
use proptest::sample::subsequence;
use whittle_core::assessment::assess;
use whittle_core::engine::SearchStop;
use whittle_core::model::Confidence;

fn session_and_kind() -> impl Strategy<Value = (Vec<u32>, Kind)> {
    oracles::session_and_kind(24, 16, 3)
}

fn run(session: &[u32], budget: u32, kind: &Kind) -> Transcript {
    drive(session, budget, &mut oracle(kind))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn state_machine_matches_the_reference_transcription(
        (session, kind) in session_and_kind(),
        budget in 1u32..=90,
    ) {
        let engine = run(&session, budget, &kind);
        let reference = reference_minimize(&session, budget, &mut oracle(&kind));
        prop_assert_eq!(&engine.requests, &reference.requests);
        prop_assert_eq!(&engine.outcomes, &reference.outcomes);
        prop_assert_eq!(&engine.result, &reference.result);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn results_never_claim_more_than_their_evidence(
        (session, kind) in session_and_kind(),
        budget in 1u32..=90,
    ) {
        let t = run(&session, budget, &kind);
        check_claims(&session, budget, &t);
    }

    #[test]
    fn monotone_oracle_with_ample_budget_finds_exactly_the_essential_steps(
        (session, essential) in subsequence((1u32..=24).collect::<Vec<_>>(), 0..=16)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 0..=n)) }),
    ) {
        let kind = Kind::Monotone { essential: essential.clone() };
        let t = run(&session, 5000, &kind);
        let r = &t.result;
        prop_assert!(r.baseline_reproduced);
        prop_assert_eq!(&r.current, &essential);
        prop_assert!(r.flags.fixed_point_reached && r.flags.final_confirmed);
        prop_assert!(!r.flags.budget_exhausted && !r.flags.flaky_observed);
        // 1-minimal: no single step of the result can be deleted.
        for row in &r.proof {
            prop_assert!(consistent_negatives(&row.outcomes));
            prop_assert!(!contains_all(&row.candidate, &essential));
        }
        prop_assert_eq!(assess(r, RELIABLE).confidence, Some(Confidence::High));
    }

    #[test]
    fn a_failure_ends_the_search_and_forbids_write_back(
        (session, essential) in subsequence((1u32..=24).collect::<Vec<_>>(), 0..=12)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 0..=n.min(3))) }),
        call in 0usize..30,
        capture in any::<bool>(),
        budget in 1u32..=60,
    ) {
        let healthy = run(&session, budget, &Kind::Monotone { essential: essential.clone() });
        let failing = run(&session, budget, &Kind::FailsAt { essential, call, capture });
        if call >= healthy.requests.len() {
            prop_assert_eq!(&failing, &healthy);
            return Ok(());
        }
        // Identical up to the failing request, nothing after it.
        prop_assert_eq!(&failing.requests[..], &healthy.requests[..=call]);
        let r = &failing.result;
        if capture {
            prop_assert_eq!(r.attempts as usize, call, "a missing capture is not an attempt");
            prop_assert_eq!(&r.stop, &Some(SearchStop::CaptureFailed { cause: capture_vanished() }));
        } else {
            prop_assert_eq!(r.attempts as usize, call + 1, "a runtime error is an attempt");
            prop_assert_eq!(&r.stop, &Some(SearchStop::RuntimeFailed { cause: device_disconnected() }));
        }
        let a = assess(r, RELIABLE);
        prop_assert!(!a.write_back_allowed);
        prop_assert_ne!(a.confidence, Some(Confidence::High));
    }
}
