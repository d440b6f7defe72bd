//! Property tests: the state machine against the literal reference transcription, and
//! the claims a result may make, over random sessions and oracles.

mod engine_support;

use engine_support::reference::reference_minimize;
use engine_support::{drive, verdict, Transcript};
use proptest::prelude::*;
use proptest::sample::subsequence;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use whittle_core::assessment::{assess, IdentityQuality};
use whittle_core::model::Confidence;
use whittle_core::{
    Outcome, ReplayRequest, SearchResult, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

#[derive(Debug, Clone)]
enum Kind {
    /// Crash iff every essential step is replayed.
    Monotone { essential: Vec<u32> },
    /// Crash iff `first` is immediately followed by `then` in the candidate.
    Adjacent { first: u32, then: u32 },
    /// Like Monotone, but a real crash shows only `hit_percent` of the time and a
    /// spurious hit happens `false_percent` of the time (seeded).
    Flaky {
        essential: Vec<u32>,
        seed: u64,
        hit_percent: u32,
        false_percent: u32,
    },
    /// Monotone until request number `call` (0-based), which fails as given.
    FailsAt {
        essential: Vec<u32>,
        call: usize,
        capture: bool,
    },
}

type Oracle = Box<dyn FnMut(&ReplayRequest) -> Outcome>;

fn contains_all(candidate: &[u32], essential: &[u32]) -> bool {
    essential.iter().all(|s| candidate.contains(s))
}

fn oracle(kind: &Kind) -> Oracle {
    match kind.clone() {
        Kind::Monotone { essential } => {
            Box::new(move |r: &ReplayRequest| verdict(contains_all(&r.candidate, &essential)))
        }
        Kind::Adjacent { first, then } => Box::new(move |r: &ReplayRequest| {
            verdict(
                r.candidate
                    .windows(2)
                    .any(|p| p[0] == first && p[1] == then),
            )
        }),
        Kind::Flaky {
            essential,
            seed,
            hit_percent,
            false_percent,
        } => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            Box::new(move |r: &ReplayRequest| {
                let roll = rng.gen_range(0..100);
                if contains_all(&r.candidate, &essential) {
                    verdict(roll < hit_percent)
                } else {
                    verdict(roll < false_percent)
                }
            })
        }
        Kind::FailsAt {
            essential,
            call,
            capture,
        } => {
            let mut calls = 0usize;
            Box::new(move |r: &ReplayRequest| {
                let this = calls;
                calls += 1;
                match (this == call, capture) {
                    (true, true) => Outcome::CaptureMissing {
                        reason: "log capture vanished".to_owned(),
                    },
                    (true, false) => Outcome::RuntimeError {
                        error: "device disconnected".to_owned(),
                    },
                    (false, _) => verdict(contains_all(&r.candidate, &essential)),
                }
            })
        }
    }
}

fn session_and_kind() -> impl Strategy<Value = (Vec<u32>, Kind)> {
    subsequence((1u32..=24).collect::<Vec<_>>(), 0..=16).prop_flat_map(|session| {
        let n = session.len();
        let essential = subsequence(session.clone(), 0..=n.min(3));
        let pick = {
            let session = session.clone();
            move |i: prop::sample::Index| session.get(i.index(n.max(1))).copied().unwrap_or(0)
        };
        let pick2 = pick.clone();
        let kind = prop_oneof![
            essential
                .clone()
                .prop_map(|essential| Kind::Monotone { essential }),
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(move |(a, b)| {
                Kind::Adjacent {
                    first: pick(a),
                    then: pick2(b),
                }
            }),
            (essential.clone(), any::<u64>(), 40u32..=100, 0u32..=15).prop_map(
                |(essential, seed, hit_percent, false_percent)| Kind::Flaky {
                    essential,
                    seed,
                    hit_percent,
                    false_percent,
                }
            ),
            (essential, 0usize..40, any::<bool>()).prop_map(|(essential, call, capture)| {
                Kind::FailsAt {
                    essential,
                    call,
                    capture,
                }
            }),
        ];
        kind.prop_map(move |kind| (session.clone(), kind))
    })
}

fn run(session: &[u32], budget: u32, kind: &Kind) -> Transcript {
    drive(session, budget, &mut oracle(kind))
}

fn is_mixed(outcomes: &[bool]) -> bool {
    outcomes.contains(&true) && outcomes.contains(&false)
}

fn consistent_negatives(outcomes: &[bool]) -> bool {
    outcomes.len() >= NEGATIVE_PROOF_RUNS && outcomes.iter().all(|&hit| !hit)
}

fn is_subsequence(small: &[u32], big: &[u32]) -> bool {
    let mut rest = big.iter();
    small.iter().all(|s| rest.any(|b| b == s))
}

fn check_claims(session: &[u32], budget: u32, t: &Transcript) {
    let r: &SearchResult = &t.result;
    let counted = t
        .outcomes
        .iter()
        .filter(|o| !matches!(o, Outcome::CaptureMissing { .. }))
        .count();
    assert!(
        r.attempts <= budget,
        "attempts {} > budget {budget}",
        r.attempts
    );
    assert_eq!(
        r.attempts as usize, counted,
        "only real replays are counted"
    );
    // Each request is numbered by the real replays before it.
    let mut before = 0u32;
    for (request, outcome) in t.requests.iter().zip(&t.outcomes) {
        assert_eq!(request.attempt, before + 1);
        assert!(is_subsequence(&request.candidate, session));
        if !matches!(outcome, Outcome::CaptureMissing { .. }) {
            before += 1;
        }
    }
    // A capture or runtime failure is the last thing that happens.
    if let Some(at) = t.outcomes.iter().position(|o| {
        matches!(
            o,
            Outcome::CaptureMissing { .. } | Outcome::RuntimeError { .. }
        )
    }) {
        assert_eq!(at + 1, t.outcomes.len(), "replay issued after a failure");
    }
    assert!(is_subsequence(&r.current, session));

    let any_mixed = r.outcome_history.iter().any(|h| is_mixed(&h.outcomes));
    assert_eq!(r.flaky_observed, any_mixed, "flaky latch ⇔ a mixed history");

    if r.baseline_reproduced {
        let final_outcomes = r.final_outcomes();
        assert!(
            final_outcomes.contains(&true),
            "current must have reproduced live"
        );
        assert_eq!(r.proof.len(), r.current.len());
    }
    if r.fixed_point_reached {
        assert!(r
            .proof
            .iter()
            .all(|row| consistent_negatives(&row.outcomes)));
    }

    for identity in [
        RELIABLE,
        IdentityQuality {
            fingerprint_reliable: false,
            signature_degraded: true,
        },
    ] {
        let a = assess(r, identity);
        let failed = r.capture_failure.is_some() || r.runtime_failure.is_some();
        assert_eq!(a.write_back_allowed, r.baseline_reproduced && !failed);
        assert_eq!(a.confidence.is_none(), !r.baseline_reproduced);
        assert_ne!(a.confidence, Some(Confidence::Low));
        if a.confidence == Some(Confidence::High) {
            assert!(identity.fingerprint_reliable && !identity.signature_degraded);
            assert!(r.fixed_point_reached && r.final_confirmed && !r.budget_exhausted);
            assert!(r
                .proof
                .iter()
                .all(|row| consistent_negatives(&row.outcomes)));
            let final_outcomes = r.final_outcomes();
            assert!(final_outcomes.len() >= HIGH_CONFIDENCE_RUNS);
            assert!(final_outcomes.iter().all(|&hit| hit));
            assert!(!any_mixed && !r.flaky_observed);
            assert!(!failed);
        }
        if any_mixed {
            assert_ne!(a.confidence, Some(Confidence::High));
        }
    }
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
        prop_assert!(r.fixed_point_reached && r.final_confirmed);
        prop_assert!(!r.budget_exhausted && !r.flaky_observed);
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
            prop_assert_eq!(r.capture_failure.as_deref(), Some("log capture vanished"));
            prop_assert!(r.runtime_failure.is_none());
        } else {
            prop_assert_eq!(r.attempts as usize, call + 1, "a runtime error is an attempt");
            prop_assert_eq!(r.runtime_failure.as_deref(), Some("device disconnected"));
            prop_assert!(r.capture_failure.is_none());
        }
        let a = assess(r, RELIABLE);
        prop_assert!(!a.write_back_allowed);
        prop_assert_ne!(a.confidence, Some(Confidence::High));
    }
}
