//! Budget tables: the attempt sequence and flags for budgets 1, 2, 5, 30 (and the
//! boundaries inside the audit and the confirmation) on hand-traced sessions.

use crate::engine_support;

use engine_support::{drive, needs_all, Transcript};
use whittle_core::assessment::{assess, IdentityQuality, Warning};
use whittle_core::model::Confidence;
use whittle_core::Phase::{self, *};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

struct Row {
    budget: u32,
    attempts: u32,
    current: &'static [u32],
    fixed_point: bool,
    final_confirmed: bool,
    budget_exhausted: bool,
    confidence: Option<Confidence>,
}

/// The full (unbounded) trace; a budget of N must issue exactly its first N requests.
type Trace = &'static [(Phase, &'static [u32])];

fn check(session: &[u32], essential: &[u32], full: Trace, rows: &[Row]) {
    for row in rows {
        let t: Transcript = drive(session, row.budget, &mut needs_all(essential.to_vec()));
        let issued: Vec<(u32, Phase, Vec<u32>)> = t
            .requests
            .iter()
            .map(|r| (r.attempt, r.phase, r.candidate.clone()))
            .collect();
        let expected: Vec<(u32, Phase, Vec<u32>)> = full
            .iter()
            .take(row.attempts as usize)
            .enumerate()
            .map(|(i, (phase, cand))| (i as u32 + 1, *phase, cand.to_vec()))
            .collect();
        let at = format!("session {session:?} budget {}", row.budget);
        assert_eq!(issued, expected, "{at}");
        let r = &t.result;
        assert_eq!(r.attempts, row.attempts, "{at}");
        assert_eq!(r.current, row.current, "{at}");
        assert_eq!(r.flags.fixed_point_reached, row.fixed_point, "{at}");
        assert_eq!(r.flags.final_confirmed, row.final_confirmed, "{at}");
        assert_eq!(r.flags.budget_exhausted, row.budget_exhausted, "{at}");
        assert!(!r.flags.flaky_observed, "{at}");
        assert_eq!(assess(r, RELIABLE).confidence, row.confidence, "{at}");
    }
}

const MEDIUM: Option<Confidence> = Some(Confidence::Medium);
const HIGH: Option<Confidence> = Some(Confidence::High);

#[test]
fn seed_example_session_under_budgets() {
    const FULL: Trace = &[
        (Baseline, &[2, 3, 5, 6, 7, 8]),
        (Bisect, &[2, 3, 5]),
        (Bisect, &[6, 7, 8]),
        (Bisect, &[6]),
        (Bisect, &[7, 8]),
        (Bisect, &[7]),
        (Audit, &[]),
        (Audit, &[]),
        (Audit, &[]),
        (Confirm, &[7]),
        (Confirm, &[7]),
    ];
    #[rustfmt::skip]
    let rows = [
        Row { budget: 1, attempts: 1, current: &[2, 3, 5, 6, 7, 8], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 2, attempts: 2, current: &[2, 3, 5, 6, 7, 8], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 5, attempts: 5, current: &[7, 8], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        // Runs out in the middle of the empty-candidate audit.
        Row { budget: 8, attempts: 8, current: &[7], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        // Fixed point proven, but only 2 of 3 confirmations fit: complete, not converged.
        Row { budget: 10, attempts: 10, current: &[7], fixed_point: true, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 11, attempts: 11, current: &[7], fixed_point: true, final_confirmed: true, budget_exhausted: false, confidence: HIGH },
        Row { budget: 30, attempts: 11, current: &[7], fixed_point: true, final_confirmed: true, budget_exhausted: false, confidence: HIGH },
    ];
    check(&[2, 3, 5, 6, 7, 8], &[7], FULL, &rows);
}

#[test]
fn two_essential_steps_under_budgets() {
    // Crash needs steps 2 and 4 of [1,2,3,4]; traced by hand from the seed pseudo-code.
    const FULL: Trace = &[
        (Baseline, &[1, 2, 3, 4]),
        (Bisect, &[1, 2]),
        (Bisect, &[3, 4]),
        (OneByOne, &[2, 3, 4]),
        (Bisect, &[2]),
        (Bisect, &[3, 4]),
        (OneByOne, &[3, 4]),
        (OneByOne, &[2, 4]),
        (Bisect, &[2]),
        (Bisect, &[4]),
        (OneByOne, &[4]),
        (OneByOne, &[2]),
        // [4] has 2 misses, needs one more; [2] already has 3.
        (Audit, &[4]),
        // [2,4] hit once at attempt 8.
        (Confirm, &[2, 4]),
        (Confirm, &[2, 4]),
    ];
    #[rustfmt::skip]
    let rows = [
        Row { budget: 1, attempts: 1, current: &[1, 2, 3, 4], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 2, attempts: 2, current: &[1, 2, 3, 4], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 5, attempts: 5, current: &[2, 3, 4], fixed_point: false, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 13, attempts: 13, current: &[2, 4], fixed_point: true, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 30, attempts: 15, current: &[2, 4], fixed_point: true, final_confirmed: true, budget_exhausted: false, confidence: HIGH },
    ];
    check(&[1, 2, 3, 4], &[2, 4], FULL, &rows);
}

#[test]
fn launch_only_crash_under_budgets() {
    // No replayable action: baseline replays [], which is already a fixed point.
    const FULL: Trace = &[(Baseline, &[]), (Confirm, &[]), (Confirm, &[])];
    #[rustfmt::skip]
    let rows = [
        Row { budget: 1, attempts: 1, current: &[], fixed_point: true, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 2, attempts: 2, current: &[], fixed_point: true, final_confirmed: false, budget_exhausted: true, confidence: MEDIUM },
        Row { budget: 5, attempts: 3, current: &[], fixed_point: true, final_confirmed: true, budget_exhausted: false, confidence: HIGH },
        Row { budget: 30, attempts: 3, current: &[], fixed_point: true, final_confirmed: true, budget_exhausted: false, confidence: HIGH },
    ];
    check(&[], &[], FULL, &rows);
}

#[test]
fn baseline_that_does_not_reproduce_stops_under_every_budget() {
    const FULL: Trace = &[(Baseline, &[4, 9])];
    for budget in [1, 2, 5, 30] {
        let t = drive(&[4, 9], budget, &mut needs_all(vec![99]));
        assert_eq!(t.requests.len(), 1);
        assert_eq!(
            (t.requests[0].phase, t.requests[0].candidate.as_slice()),
            FULL[0]
        );
        let r = &t.result;
        assert!(
            !r.baseline_reproduced && !r.flags.budget_exhausted && !r.flags.fixed_point_reached
        );
        assert_eq!(r.current, vec![4, 9]);
        let a = assess(r, RELIABLE);
        assert_eq!(a.confidence, None);
        assert!(!a.write_back_allowed && !a.minimized_complete);
        assert_eq!(a.warnings, vec![Warning::BaselineNotReproduced]);
        assert_eq!(a.end, whittle_core::run_end::RunEnd::NotReproduced);
    }
}
