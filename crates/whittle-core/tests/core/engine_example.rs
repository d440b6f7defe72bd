//! The seed's worked example ("例", Phase 3 transcript) and the engine's request protocol.

use crate::engine_support;

use engine_support::{drive, needs_all, scripted, verdict};
use whittle_core::assessment::{assess, minimal_path, IdentityQuality, Warning};
use whittle_core::model::Confidence;
use whittle_core::run_end::RunEnd;
use whittle_core::{Engine, EngineError, Phase, ProofRow, ReplayOutcome, Request};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

fn steps_of(transcript: &engine_support::Transcript) -> Vec<(u32, Phase, Vec<u32>)> {
    transcript
        .requests
        .iter()
        .map(|r| (r.attempt, r.phase, r.candidate.clone()))
        .collect()
}

#[test]
fn seed_example_issues_exactly_its_eleven_attempts() {
    let t = drive(&[2, 3, 5, 6, 7, 8], 30, &mut needs_all(vec![7]));
    use Phase::*;
    assert_eq!(
        steps_of(&t),
        vec![
            (1, Baseline, vec![2, 3, 5, 6, 7, 8]),
            (2, Bisect, vec![2, 3, 5]),
            (3, Bisect, vec![6, 7, 8]),
            (4, Bisect, vec![6]),
            (5, Bisect, vec![7, 8]),
            (6, Bisect, vec![7]),
            (7, Audit, vec![]),
            (8, Audit, vec![]),
            (9, Audit, vec![]),
            (10, Confirm, vec![7]),
            (11, Confirm, vec![7]),
        ]
    );
    let r = &t.result;
    assert!(r.baseline_reproduced);
    assert_eq!(r.current, vec![7]);
    assert_eq!(r.attempts, 11);
    assert!(r.flags.fixed_point_reached && r.flags.final_confirmed);
    assert!(!r.flags.flaky_observed && !r.flags.budget_exhausted);
    assert_eq!(r.stop, None);
    assert_eq!(
        r.proof,
        vec![ProofRow {
            removed_step: 7,
            candidate: vec![],
            outcomes: vec![false, false, false]
        }]
    );
    assert_eq!(r.final_outcomes(), &[true, true, true]);

    let a = assess(r, RELIABLE);
    assert_eq!(a.confidence, Some(Confidence::High));
    assert!(a.converged && a.minimized_complete && a.write_back_allowed);
    assert!(a.warnings.is_empty());
    // "[1..8] → [1,7] (8→2 步，含 launch)"
    assert_eq!(
        minimal_path(&[1, 2, 3, 4, 5, 6, 7, 8], &[1], &r.current),
        vec![1, 7]
    );
}

#[test]
fn seed_example_is_medium_when_identity_is_degraded() {
    let t = drive(&[2, 3, 5, 6, 7, 8], 30, &mut needs_all(vec![7]));
    let a = assess(
        &t.result,
        IdentityQuality {
            fingerprint_reliable: false,
            signature_degraded: true,
        },
    );
    assert_eq!(a.confidence, Some(Confidence::Medium));
    assert!(a.converged);
    assert!(a.warnings.contains(&Warning::SignatureDegraded));
    assert_eq!(a.end, RunEnd::Unproven, "medium is never called minimal");
}

#[test]
fn zero_budget_and_duplicate_steps_are_refused() {
    assert_eq!(
        Engine::new(vec![1, 2], 0).err(),
        Some(EngineError::InvalidBudget { max_replays: 0 })
    );
    assert_eq!(
        Engine::new(vec![1, 2, 1], 5).err(),
        Some(EngineError::DuplicateStep { step: 1 })
    );
}

#[test]
fn next_request_is_idempotent_until_recorded() {
    let mut engine = Engine::new(vec![4, 5, 6], 30).unwrap();
    let first = engine.next_request();
    assert_eq!(first, engine.next_request());
    let Request::Replay(request) = first else {
        panic!("expected a replay")
    };
    assert_eq!((request.attempt, request.phase), (1, Phase::Baseline));
    let snapshot = engine.snapshot();
    assert_eq!(snapshot.candidate, Some(vec![4, 5, 6]));
    assert_eq!(snapshot.attempts, 0);

    engine.record(ReplayOutcome::Reproduced);
    let Request::Replay(second) = engine.next_request() else {
        panic!("expected a replay")
    };
    assert_eq!((second.attempt, second.phase), (2, Phase::Bisect));
    assert_eq!(second.candidate, vec![4]);
    assert_eq!(engine.snapshot().attempts, 1);
    assert_eq!(engine.snapshot().outcome_history[0].outcomes, vec![true]);
}

#[test]
fn record_answers_the_pending_request_even_without_asking_first() {
    let mut asked = Engine::new(vec![1, 2], 30).unwrap();
    let mut blind = asked.clone();
    asked.next_request();
    asked.record(ReplayOutcome::Reproduced);
    blind.record(ReplayOutcome::Reproduced);
    assert_eq!(asked.next_request(), blind.next_request());
}

#[test]
fn recording_after_done_changes_nothing() {
    let mut engine = Engine::new(vec![1], 30).unwrap();
    engine.record(verdict(false)); // baseline fails: search stops
    let Request::Done(done) = engine.next_request() else {
        panic!("expected done")
    };
    engine.record(ReplayOutcome::Reproduced);
    assert_eq!(engine.next_request(), Request::Done(done.clone()));
    assert_eq!(done.attempts, 1);
    assert!(!done.baseline_reproduced);
    assert!(done.proof.is_empty());
}

#[test]
fn confirmation_counts_earlier_outcomes_of_the_final_candidate_and_latches_flaky() {
    // [5,6]: baseline hit; halves [5],[6] miss; one-by-one [6] hits (mixed → flaky);
    // audit of [6]: [] misses 3 times; confirmation has [6]=[F,T] so needs one more.
    let t = drive(
        &[5, 6],
        30,
        &mut scripted(vec![true, false, false, true, false, false, false, true]),
    );
    use Phase::*;
    assert_eq!(
        steps_of(&t),
        vec![
            (1, Baseline, vec![5, 6]),
            (2, Bisect, vec![5]),
            (3, Bisect, vec![6]),
            (4, OneByOne, vec![6]),
            (5, Audit, vec![]),
            (6, Audit, vec![]),
            (7, Audit, vec![]),
            (8, Confirm, vec![6]),
        ]
    );
    let r = &t.result;
    assert_eq!(r.current, vec![6]);
    assert!(r.flags.flaky_observed && r.flags.fixed_point_reached);
    assert!(!r.flags.final_confirmed && !r.flags.budget_exhausted);
    assert_eq!(r.final_outcomes(), &[false, true, true]);
    let a = assess(r, RELIABLE);
    assert_eq!(a.confidence, Some(Confidence::Medium));
    assert!(a.write_back_allowed);
    assert!(a.warnings.contains(&Warning::Flaky {
        reproduced: 3,
        total: 8
    }));
}

#[test]
fn an_audit_sample_that_hits_shortens_current_and_latches_flaky() {
    // [1,2]: baseline hit; halves [1],[2] miss; one-by-one [2],[1] miss → audit.
    // Audit of [1,2]: [2] already has two misses, the third sample hits → current [2].
    // Audit of [2]: [] misses 3 times → fixed point. [2] already has 3 outcomes
    // ([F,F,T]) so confirmation replays nothing and the path is not confirmed.
    let t = drive(
        &[1, 2],
        30,
        &mut scripted(vec![
            true, false, false, false, false, true, false, false, false,
        ]),
    );
    use Phase::*;
    assert_eq!(
        steps_of(&t),
        vec![
            (1, Baseline, vec![1, 2]),
            (2, Bisect, vec![1]),
            (3, Bisect, vec![2]),
            (4, OneByOne, vec![2]),
            (5, OneByOne, vec![1]),
            (6, Audit, vec![2]),
            (7, Audit, vec![]),
            (8, Audit, vec![]),
            (9, Audit, vec![]),
        ]
    );
    let r = &t.result;
    assert_eq!(r.current, vec![2]);
    assert!(r.flags.flaky_observed && r.flags.fixed_point_reached);
    assert!(!r.flags.final_confirmed && !r.flags.budget_exhausted);
    assert_eq!(r.final_outcomes(), &[false, false, true]);
    let a = assess(r, RELIABLE);
    assert_eq!(a.confidence, Some(Confidence::Medium));
    assert!(a.minimized_complete && !a.converged);
}

#[test]
fn singleton_hit_on_empty_candidate_reduces_to_launch_only() {
    // current [5]: the audit's replay([]) hits, so the crash needs only the launch.
    let t = drive(&[5], 30, &mut needs_all(vec![]));
    use Phase::*;
    assert_eq!(
        steps_of(&t),
        vec![
            (1, Baseline, vec![5]),
            (2, Audit, vec![]),
            (3, Confirm, vec![]),
            (4, Confirm, vec![]),
        ]
    );
    let r = &t.result;
    assert!(r.current.is_empty() && r.flags.fixed_point_reached && r.flags.final_confirmed);
    assert!(r.proof.is_empty());
    assert_eq!(assess(r, RELIABLE).confidence, Some(Confidence::High));
}

#[test]
fn phase_serializes_snake_case() {
    assert_eq!(
        serde_json::to_string(&Phase::OneByOne).unwrap(),
        "\"one_by_one\""
    );
    assert_eq!(serde_json::to_string(&Phase::Audit).unwrap(), "\"audit\"");
}
