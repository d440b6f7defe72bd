//! What any result may claim, whatever the strategy and the oracle.

use whittle_core::assessment::{assess, IdentityQuality};
use whittle_core::model::Confidence;
use whittle_core::{ReplayOutcome, SearchResult, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};

use super::Transcript;

pub const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

pub const DEGRADED: IdentityQuality = IdentityQuality {
    fingerprint_reliable: false,
    signature_degraded: true,
};

pub fn is_mixed(outcomes: &[bool]) -> bool {
    outcomes.contains(&true) && outcomes.contains(&false)
}

pub fn consistent_negatives(outcomes: &[bool]) -> bool {
    outcomes.len() >= NEGATIVE_PROOF_RUNS && outcomes.iter().all(|&hit| !hit)
}

pub fn is_subsequence(small: &[u32], big: &[u32]) -> bool {
    let mut rest = big.iter();
    small.iter().all(|s| rest.any(|b| b == s))
}

pub fn check_claims(session: &[u32], budget: u32, t: &Transcript) {
    check_claims_with_tries(session, budget, 1, t);
}

/// [`check_claims`] for a run that may replay the full path up to `tries` times.
pub fn check_claims_with_tries(session: &[u32], budget: u32, tries: usize, t: &Transcript) {
    let r: &SearchResult = &t.result;
    let counted = t
        .outcomes
        .iter()
        .filter(|o| !matches!(o, ReplayOutcome::CaptureMissing { .. }))
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
        if !matches!(outcome, ReplayOutcome::CaptureMissing { .. }) {
            before += 1;
        }
    }
    // A capture or runtime failure is the last thing that happens.
    if let Some(at) = t.outcomes.iter().position(|o| {
        matches!(
            o,
            ReplayOutcome::CaptureMissing { .. }
                | ReplayOutcome::Failed { .. }
                | ReplayOutcome::Cancelled
        )
    }) {
        assert_eq!(at + 1, t.outcomes.len(), "replay issued after a failure");
    }
    assert!(is_subsequence(&r.current, session));

    let any_mixed = r.outcome_history.iter().any(|h| is_mixed(&h.outcomes));
    assert_eq!(
        r.flags.flaky_observed, any_mixed,
        "flaky latch ⇔ a mixed history"
    );

    if r.baseline_reproduced {
        let final_outcomes = r.final_outcomes();
        assert!(
            final_outcomes.contains(&true),
            "current must have reproduced live"
        );
        assert_eq!(r.proof.len(), r.current.len());
    } else {
        assert!(
            t.requests.len() <= tries,
            "no search without a live baseline"
        );
        assert_eq!(r.current, session);
    }
    if r.flags.fixed_point_reached {
        assert!(r
            .proof
            .iter()
            .all(|row| consistent_negatives(&row.outcomes)));
    }
    if r.flags.budget_exhausted {
        assert!(r.attempts == budget || !r.flags.final_confirmed);
    }

    for identity in [RELIABLE, DEGRADED] {
        let a = assess(r, identity);
        let failed = r.stop.is_some();
        assert_eq!(a.write_back_allowed, r.baseline_reproduced && !failed);
        assert_eq!(a.confidence.is_none(), !r.baseline_reproduced);
        assert_ne!(a.confidence, Some(Confidence::Low));
        if a.confidence == Some(Confidence::High) {
            assert!(identity.fingerprint_reliable && !identity.signature_degraded);
            assert!(
                r.flags.fixed_point_reached && r.flags.final_confirmed && !r.flags.budget_exhausted
            );
            assert!(r
                .proof
                .iter()
                .all(|row| consistent_negatives(&row.outcomes)));
            let final_outcomes = r.final_outcomes();
            assert!(final_outcomes.len() >= HIGH_CONFIDENCE_RUNS);
            assert!(final_outcomes.iter().all(|&hit| hit));
            assert!(!any_mixed && !r.flags.flaky_observed);
            assert!(!failed);
        }
        if any_mixed {
            assert_ne!(a.confidence, Some(Confidence::High));
        }
    }
}
