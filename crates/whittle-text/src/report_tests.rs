//! Both languages state the same facts; Chinese uses the seed's words and, like English,
//! never puts ✅ or 已收敛 over an incomplete proof.

use super::*;
use crate::{render_rate_lines, render_rate_lines_in};
use whittle_core::assessment::{assess, IdentityQuality};
use whittle_core::engine::{CandidateHistory, ProofRow, SearchFlags};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

/// The seed's example run: [2,3,5,6,7,8] → [7] in 11 replays, fully proven.
fn converged() -> SearchResult {
    SearchResult {
        baseline_reproduced: true,
        current: vec![7],
        attempts: 11,
        max_replays: 30,
        flags: SearchFlags {
            fixed_point_reached: true,
            final_confirmed: true,
            flaky_observed: false,
            budget_exhausted: false,
        },
        stop: None,
        proof: vec![ProofRow {
            removed_step: 7,
            candidate: vec![],
            outcomes: vec![false, false, false],
        }],
        outcome_history: vec![
            CandidateHistory {
                candidate: vec![7],
                outcomes: vec![true, true, true],
            },
            CandidateHistory {
                candidate: vec![],
                outcomes: vec![false, false, false],
            },
        ],
        statistical: None,
    }
}

/// The budget ran out after one negative of the audit: shortest so far, not proven.
fn exhausted() -> SearchResult {
    SearchResult {
        attempts: 5,
        max_replays: 5,
        flags: SearchFlags {
            fixed_point_reached: false,
            final_confirmed: false,
            flaky_observed: false,
            budget_exhausted: true,
        },
        proof: vec![ProofRow {
            removed_step: 7,
            candidate: vec![],
            outcomes: vec![false],
        }],
        outcome_history: vec![
            CandidateHistory {
                candidate: vec![7],
                outcomes: vec![true],
            },
            CandidateHistory {
                candidate: vec![],
                outcomes: vec![false],
            },
        ],
        ..converged()
    }
}

fn render_in(locale: Locale, result: &SearchResult) -> String {
    let assessment = assess(result, RELIABLE);
    render_report_in(
        locale,
        &ReportInput {
            session: "2026-05-14_qa-sdk805",
            crash_id: "c1",
            original_path: &[1, 2, 3, 4, 5, 6, 7, 8],
            minimal_path: &[1, 7],
            target: "a3f2b89c1d0e",
            evidence_report: Some("sessions/2026-05-14_165500_minimize-qa-sdk805/report.md"),
            process: None,
            result,
            assessment: &assessment,
        },
    )
}

#[test]
fn english_stays_the_default_wording() {
    let result = converged();
    let assessment = assess(&result, RELIABLE);
    let input = ReportInput {
        session: "s",
        crash_id: "c1",
        original_path: &[1, 7],
        minimal_path: &[1, 7],
        target: "fp",
        evidence_report: None,
        process: None,
        result: &result,
        assessment: &assessment,
    };
    assert_eq!(render_report(&input), render_report_in(Locale::En, &input));
    assert_eq!(Locale::default(), Locale::En);
    assert_eq!(
        render_proof_table(&result),
        vec!["without step 7: 0/3 reproduced"]
    );
}

#[test]
fn converged_run_reads_as_the_seed_prints_it_in_chinese() {
    let expected = "\
✅ 复现路径精简：最小路径，已收敛 (2026-05-14_qa-sdk805 c1)
  原始:     [1,2,3,4,5,6,7,8]  (8 步)
  最小:     [1,7]              (2 步)
  验证:     共 11 次 replay（上限 30）；每个单删除候选 0/3，最终路径 3/3
            命中 a3f2b89c1d0e，已收敛
  单删除候选:
    删除第 7 步：0/3 复现
  复现率:
    最终路径: 复现 3 次 / 共 3 次（95% 区间 43–100%）
    删除第 7 步: 复现 0 次 / 共 3 次（95% 区间 0–57%）
  报告:     sessions/2026-05-14_165500_minimize-qa-sdk805/report.md
";
    assert_eq!(render_in(Locale::ZhCn, &converged()), expected);
}

#[test]
fn an_exhausted_budget_is_never_called_minimal_in_chinese() {
    let text = render_in(Locale::ZhCn, &exhausted());
    assert!(
        text.starts_with("⚠ 当前已复现的最短候选——未完成最小性证明 (2026-05-14_qa-sdk805 c1)\n"),
        "{text}"
    );
    assert!(!text.contains('✅'), "{text}");
    assert!(!text.contains("已收敛"), "{text}");
    assert!(text.contains("  最短候选: [1,7]"), "{text}");
    assert!(text.contains("5 次 replay 的预算已耗尽，未达不动点，可加大 replay 预算"));
    assert!(text.contains("不动点审计未完成"), "{text}");
    assert!(
        text.contains("最终路径 1 次 replay 中 1 次复现（需要 3/3）"),
        "{text}"
    );
    assert!(
        text.contains("1 个单删除候选中 0 个已 3 次一致不复现"),
        "{text}"
    );
}

#[test]
fn both_languages_state_the_same_numbers() {
    for result in [converged(), exhausted()] {
        let digits = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_ascii_digit())
                .filter(|part| !part.is_empty())
                .map(str::to_owned)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let en = render_in(Locale::En, &result);
        let zh = render_in(Locale::ZhCn, &result);
        assert_eq!(digits(&en), digits(&zh), "\n{en}\n{zh}");
    }
}

#[test]
fn a_flaky_run_says_how_often_in_chinese_and_is_not_high() {
    let mut result = converged();
    result.flags.flaky_observed = true;
    result.outcome_history[0].outcomes = vec![true, false, true, true];
    let text = render_in(Locale::ZhCn, &result);
    assert!(!text.contains('✅'), "{text}");
    assert!(text.contains("偶发：7 次 replay 中 3 次复现"), "{text}");
}

#[test]
fn a_baseline_that_did_not_reproduce_writes_nothing_back_in_chinese() {
    let result = SearchResult {
        baseline_reproduced: false,
        current: vec![2, 3, 5, 6, 7, 8],
        attempts: 1,
        flags: SearchFlags {
            fixed_point_reached: false,
            final_confirmed: false,
            ..converged().flags
        },
        proof: vec![],
        outcome_history: vec![CandidateHistory {
            candidate: vec![2, 3, 5, 6, 7, 8],
            outcomes: vec![false],
        }],
        ..converged()
    };
    let text = render_in(Locale::ZhCn, &result);
    assert!(text.starts_with("✗ 原路径未在本轮复现 ("), "{text}");
    assert!(text.contains("  基线:     完整的可回放路径未复现 a3f2b89c1d0e"));
    assert!(
        text.contains("没有产生最小路径；不会写回任何内容。"),
        "{text}"
    );
}

#[test]
fn labels_line_up_by_terminal_columns() {
    assert_eq!(label("Original:"), "Original: ");
    // Three CJK characters are six columns, the colon one: padded to ten.
    assert_eq!(label("原始:"), "原始:     ");
    // Longer than the column: still one space before the value.
    assert_eq!(label("Why not proven:"), "Why not proven: ");
}

#[test]
fn rate_lines_cover_the_final_path_and_every_deletion() {
    let result = converged();
    assert_eq!(
        render_rate_lines(result.final_outcomes(), &result.proof),
        vec![
            "final path: reproduced 3 of 3 (95 % interval 43–100 %)",
            "without step 7: reproduced 0 of 3 (95 % interval 0–57 %)",
        ]
    );
    assert_eq!(
        render_rate_lines_in(Locale::ZhCn, &[true, false], &[]),
        vec!["最终路径: 复现 1 次 / 共 2 次（95% 区间 9–91%）"]
    );
}

/// A `flaky`-strategy result: [1..4] → [4] on a crash seen 6 of 7 times.
fn statistical() -> SearchResult {
    SearchResult {
        current: vec![4],
        attempts: 14,
        flags: SearchFlags {
            final_confirmed: false,
            flaky_observed: true,
            ..converged().flags
        },
        proof: vec![ProofRow {
            removed_step: 4,
            candidate: vec![],
            outcomes: vec![false; 5],
        }],
        outcome_history: vec![
            CandidateHistory {
                candidate: vec![2, 3, 4],
                outcomes: vec![true, true, true, true],
            },
            CandidateHistory {
                candidate: vec![4],
                outcomes: vec![true, false, true],
            },
            CandidateHistory {
                candidate: vec![],
                outcomes: vec![false; 5],
            },
        ],
        statistical: Some(whittle_core::engine::StatisticalProof {
            confidence_percent: 95,
            cap: 20,
        }),
        ..converged()
    }
}

#[test]
fn a_statistical_result_shows_the_crash_rate_and_the_evidence_of_every_removal() {
    let text = render_in(Locale::En, &statistical());
    assert!(!text.contains('✅'), "{text}");
    for line in [
        "  Rates:\n",
        "    final path: reproduced 2 of 3 (95 % interval 20–94 %)\n",
        "    crash rate: reproduced 6 of 7 (95 % interval 48–98 %)\n",
        "    without step 4: reproduced 0 of 5 (95 % interval 0–44 %) — below the crash rate\n",
        "    step 2: [4] reproduced 2 of 3 (95 % interval 20–94 %)\n",
        "    step 3: [4] reproduced 2 of 3 (95 % interval 20–94 %)\n",
        "    - flaky strategy, never high: misses of a flaky crash are evidence, not proof; \
         each deletion was replayed until its 95 % interval fell below the crash rate's \
         (cap 20)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    let zh = render_in(Locale::ZhCn, &statistical());
    assert!(
        zh.contains("    崩溃率: 复现 6 次 / 共 7 次（95% 区间 48–98%）\n"),
        "{zh}"
    );
    assert!(zh.contains("— 低于崩溃率"), "{zh}");
    assert!(zh.contains("偶发策略"), "{zh}");
    // Both languages, the same numbers.
    let digits = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(digits(&text), digits(&zh));
}

#[test]
fn a_deletion_that_never_separated_is_named() {
    let mut result = statistical();
    // Two misses only: 0 of 2 reaches 66 %, above the crash rate's lower bound.
    result.proof[0].outcomes = vec![false, false];
    result.outcome_history[2].outcomes = vec![false, false];
    let text = render_in(Locale::En, &result);
    assert!(
        text.contains("— not separated from the crash rate"),
        "{text}"
    );
    assert!(text.contains("; not separated: steps 4"), "{text}");
}

#[test]
fn a_resumed_line_says_when_and_after_how_many_attempts_in_both_languages() {
    assert_eq!(
        render_resumed_line(Locale::En, "2026-05-14T16:58:00Z", 7),
        "  Resumed: 2026-05-14T16:58:00Z after 7 recorded attempts (the run had been \
         interrupted; nothing recorded was replayed again)\n"
    );
    assert_eq!(
        render_resumed_line(Locale::ZhCn, "2026-05-14T16:58:00Z", 7),
        "  续跑：2026-05-14T16:58:00Z，此前已记录 7 次 replay（中断后继续，已记录的不再重放）\n"
    );
}

/// Issue 29: when an app's other process crashed, the title says which, in each language.
#[test]
fn the_title_names_a_side_process_that_crashed() {
    let result = converged();
    let assessment = assess(&result, RELIABLE);
    let input = ReportInput {
        session: "s",
        crash_id: "c1",
        original_path: &[1, 2],
        minimal_path: &[1, 2],
        target: "a3f2b89c1d0e",
        evidence_report: None,
        process: Some("com.acme.notes:sync"),
        result: &result,
        assessment: &assessment,
    };
    let en = render_report_in(Locale::En, &input);
    assert!(
        en.lines()
            .next()
            .unwrap()
            .ends_with("(s c1, in process com.acme.notes:sync)"),
        "{en}"
    );
    let zh = render_report_in(Locale::ZhCn, &input);
    assert!(
        zh.lines()
            .next()
            .unwrap()
            .ends_with("(s c1, 进程 com.acme.notes:sync)"),
        "{zh}"
    );
    let main = render_report_in(
        Locale::En,
        &ReportInput {
            process: None,
            ..input
        },
    );
    assert!(!main.contains("in process"), "{main}");
}
