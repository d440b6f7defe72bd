//! The report wording (Phase 5 (docs/design.md §13) step 5): never a ✅ or "converged" over an
//! incomplete proof; every reason a result falls short is spelled out.

// The core's engine test driver and oracles, shared rather than copied: the report is
// checked on results the real engine produced.
#[path = "../../whittle-core/tests/core/engine_support/mod.rs"]
mod engine_support;

use engine_support::{drive, needs_all, scripted, verdict};
use proptest::prelude::*;
use proptest::sample::subsequence;
use whittle_core::assessment::{assess, minimal_path, Assessment, IdentityQuality};
use whittle_core::engine::FailureCause;
use whittle_core::model::Confidence;
use whittle_core::run_end::RunEnd;
use whittle_core::{ReplayOutcome, ReplayRequest, SearchResult};
use whittle_text::{render_proof_table, render_report, ReportInput};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};
const ORIGINAL: &[u32] = &[1, 2, 3, 4, 5, 6, 7, 8];
const SESSION: &[u32] = &[2, 3, 5, 6, 7, 8];

fn render(result: &SearchResult, identity: IdentityQuality) -> (String, Assessment) {
    let assessment = assess(result, identity);
    let minimal = minimal_path(ORIGINAL, &[1], &result.current);
    let text = render_report(&ReportInput {
        session: "2026-05-14_qa-sdk805",
        crash_id: "c1",
        original_path: ORIGINAL,
        minimal_path: &minimal,
        target: "a3f2b89c1d0e",
        evidence_report: Some("sessions/2026-05-14_165500_minimize-qa-sdk805/report.md"),
        process: None,
        result,
        assessment: &assessment,
    });
    (text, assessment)
}

#[test]
fn converged_seed_example_reads_as_the_seed_prints_it() {
    let t = drive(SESSION, 30, &mut needs_all(vec![7]));
    let (text, _) = render(&t.result, RELIABLE);
    let expected = "\
✅ Minimal path found (2026-05-14_qa-sdk805 c1)
  Original: [1,2,3,4,5,6,7,8]  (8 steps)
  Minimal:  [1,7]              (2 steps)
  Proof:    11 replays of max 30; every single-deletion candidate 0/3, final path 3/3
            reproduced a3f2b89c1d0e; converged
  Deletions:
    without step 7: 0/3 reproduced
  Rates:
    final path: reproduced 3 of 3 (95 % interval 43–100 %)
    without step 7: reproduced 0 of 3 (95 % interval 0–57 %)
  Report:   sessions/2026-05-14_165500_minimize-qa-sdk805/report.md
";
    assert_eq!(text, expected);
}

#[test]
fn exhausted_budget_is_a_warning_not_a_success() {
    let t = drive(SESSION, 5, &mut needs_all(vec![7]));
    let (text, _) = render(&t.result, RELIABLE);
    assert!(text.starts_with(
        "⚠ Shortest reproducing candidate so far — minimality not proven (2026-05-14_qa-sdk805 c1)\n"
    ));
    assert!(!text.contains('✅') && !text.contains("converged"));
    assert!(text.contains("  Shortest: [1,7,8]"));
    assert!(text.contains("    - budget of 5 replays exhausted; raise the replay budget\n"));
    assert!(text.contains("    - fixed-point audit incomplete"));
    assert!(text.contains("    - final path reproduced 1 of 1 replays (3/3 needed)\n"));
    assert!(text.contains("without step 7: 0/0 reproduced"));
}

#[test]
fn flaky_run_reports_hit_counts_and_is_not_called_minimal() {
    // Baseline hit, [5] miss, [6] miss, [6] hit (mixed), [] × 3 miss, [6] hit.
    let t = drive(
        &[5, 6],
        30,
        &mut scripted(vec![true, false, false, true, false, false, false, true]),
    );
    let (text, a) = render(&t.result, RELIABLE);
    assert_eq!(a.confidence, Some(Confidence::Medium));
    assert!(text.starts_with("⚠ Shortest reproducing candidate so far"));
    assert!(text.contains("    - flaky: 3 of 8 replays reproduced\n"));
    assert!(!text.contains('✅'));
}

#[test]
fn degraded_identity_is_never_called_minimal() {
    let t = drive(SESSION, 30, &mut needs_all(vec![7]));
    let (text, a) = render(
        &t.result,
        IdentityQuality {
            fingerprint_reliable: false,
            signature_degraded: true,
        },
    );
    assert_eq!(a.confidence, Some(Confidence::Medium));
    assert_eq!(a.end, RunEnd::Unproven);
    assert!(text.starts_with("⚠ Shortest reproducing candidate so far — minimality not proven"));
    assert!(text.contains("Why not proven:\n    - signature degraded"));
    assert!(!text.contains("Minimal"));
    assert!(!text.contains('✅'));
}

#[test]
fn baseline_failure_says_not_reproduced_and_offers_nothing() {
    let t = drive(SESSION, 30, &mut needs_all(vec![99]));
    let (text, _) = render(&t.result, RELIABLE);
    assert!(text.starts_with("✗ Original path did not reproduce in this run"));
    assert!(text.contains("did not reproduce a3f2b89c1d0e"));
    assert!(text.contains("nothing will be written back"));
    assert!(!text.contains("Minimal") && !text.contains("Deletions"));
}

#[test]
fn infrastructure_failures_are_named_and_block_write_back() {
    // Capture disappears before attempt 3; the runtime case fails attempt 3 itself.
    for (failure, wording) in [
        (
            ReplayOutcome::CaptureMissing {
                cause: FailureCause::Capture {
                    device: None,
                    detail: "capture\nstopped".to_owned(),
                },
            },
            "log capture failed: capture stopped",
        ),
        (
            ReplayOutcome::Failed {
                cause: FailureCause::Tool {
                    step: Some(5),
                    detail: "adb: device offline".to_owned(),
                },
            },
            "replay infrastructure failed: step 5: adb: device offline",
        ),
    ] {
        let mut calls = 0;
        let mut oracle = |r: &ReplayRequest| {
            calls += 1;
            if calls == 3 {
                failure.clone()
            } else {
                verdict(r.candidate.contains(&7))
            }
        };
        let t = drive(SESSION, 30, &mut oracle);
        let (text, a) = render(&t.result, RELIABLE);
        assert!(!a.write_back_allowed);
        assert!(text.contains(&format!("    - {wording}\n")), "{text}");
        assert!(text.contains("Not written back: the run hit an infrastructure failure"));
        assert!(
            text.starts_with("✗ Stopped by an infrastructure failure"),
            "{text}"
        );
        assert!(!text.contains('✅') && !text.contains("Minimal"));
    }
}

#[test]
fn a_cancelled_run_is_never_called_minimal() {
    // Cancelled during the final confirmation: the path so far is [1,7], as a full run
    // would find, but nothing proved it.
    for cancel_at in [1usize, 9, 11] {
        let mut calls = 0;
        let mut oracle = |r: &ReplayRequest| {
            calls += 1;
            if calls == cancel_at {
                ReplayOutcome::Cancelled
            } else {
                verdict(r.candidate.contains(&7))
            }
        };
        let t = drive(SESSION, 30, &mut oracle);
        let (text, a) = render(&t.result, RELIABLE);
        assert_eq!(a.end, RunEnd::Cancelled);
        assert!(!a.write_back_allowed);
        assert!(!text.contains("Minimal") && !text.contains('✅'), "{text}");
        assert!(
            text.starts_with("⚠ Cancelled") || text.starts_with("✗ Cancelled"),
            "{text}"
        );
        assert!(text.contains("    - cancelled by the user\n"), "{text}");
        if t.result.baseline_reproduced {
            assert!(
                text.contains("Not written back: the run was cancelled"),
                "{text}"
            );
        }
    }
}

#[test]
fn proof_table_has_one_line_per_kept_step() {
    let t = drive(&[1, 2, 3, 4], 30, &mut needs_all(vec![2, 4]));
    assert_eq!(
        render_proof_table(&t.result),
        vec![
            "without step 2: 0/3 reproduced",
            "without step 4: 0/3 reproduced"
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn check_mark_and_converged_appear_only_with_a_complete_proof(
        (session, essential) in subsequence((2u32..=8).collect::<Vec<_>>(), 0..=6)
            .prop_flat_map(|s| { let n = s.len(); (Just(s.clone()), subsequence(s, 0..=n.min(2))) }),
        script in proptest::collection::vec(any::<bool>(), 0..40),
        use_script in any::<bool>(),
        budget in 1u32..=40,
        reliable in any::<bool>(),
    ) {
        let t = if use_script {
            drive(&session, budget, &mut scripted(script))
        } else {
            drive(&session, budget, &mut needs_all(essential))
        };
        let identity = IdentityQuality { fingerprint_reliable: reliable, signature_degraded: !reliable };
        let (text, a) = render(&t.result, identity);
        prop_assert_eq!(text.contains('✅'), a.confidence == Some(Confidence::High));
        prop_assert_eq!(text.contains("Minimal"), a.end == RunEnd::Minimized);
        prop_assert_eq!(a.end == RunEnd::Minimized, a.confidence == Some(Confidence::High));
        prop_assert_eq!(text.contains("converged"), a.converged);
        prop_assert_eq!(
            a.converged,
            t.result.baseline_reproduced && t.result.flags.fixed_point_reached && t.result.flags.final_confirmed
        );
    }
}

#[test]
fn an_import_note_is_worded_with_its_line_in_each_language() {
    use whittle_core::import::{ImportNote, LaunchOption};
    use whittle_text::{catalogue, import_note_text, Locale};
    let note = ImportNote::LaunchOption {
        option: LaunchOption::ClearState,
        line: Some(3),
    };
    let en = (catalogue(Locale::En).cli.import_note)(&note);
    assert!(
        en.contains("launchApp (line 3) clears the app's data"),
        "{en}"
    );
    let zh = (catalogue(Locale::ZhCn).cli.import_note)(&note);
    assert!(
        zh.contains("（第 3 行）") && zh.contains("清除应用数据") && !zh.contains("clears"),
        "{zh}"
    );
    // Agents get the English words.
    assert_eq!(import_note_text(&note), en);
}
