//! Every word of the Phase-5 report, once per language. The report's layout and facts
//! live in `report_text.rs`; only sentences are here, so both languages say the same
//! things. The Chinese follows the seed (minimize-skill.zh.md): 复现路径精简, 最小路径,
//! 已收敛, 当前已复现的最短候选, 未完成最小性证明, 单删除候选, 偶发, 预算耗尽, 不动点.

use crate::assessment::Warning;
use crate::engine::{HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};

use super::Locale;

pub(super) struct Words {
    pub failed_before_baseline: &'static str,
    pub baseline_not_reproduced: &'static str,
    pub minimal_high: &'static str,
    pub minimal_medium: &'static str,
    pub shortest_unproven: &'static str,
    pub original: &'static str,
    pub minimal: &'static str,
    pub shortest: &'static str,
    pub baseline: &'static str,
    pub proof: &'static str,
    pub report: &'static str,
    pub why: &'static str,
    pub why_medium: &'static str,
    pub why_not_proven: &'static str,
    pub deletions: &'static str,
    pub nothing_produced: &'static str,
    pub not_written_back: &'static str,
    pub audit_incomplete: fn() -> String,
    /// Follows the budget: "; no action left to delete …".
    pub only_launch_left: &'static str,
    pub steps: fn(usize) -> String,
    pub baseline_missed: fn(&str) -> String,
    /// "17 replays of max 30".
    pub budget: fn(u32, u32) -> String,
    /// Follows the budget: "; every single-deletion candidate 0/3".
    pub every_deletion: fn(&str) -> String,
    /// Follows the budget: "; 1 of 3 single-deletion candidates disproved 3 times".
    pub some_deletions: fn(usize, usize) -> String,
    /// The proof summary and the final path's hits.
    pub proof_line: fn(&str, usize, usize) -> String,
    pub reproduced_target: fn(&str, bool) -> String,
    pub final_short: fn(usize, usize) -> String,
    pub without_step: fn(u32, usize, usize) -> String,
    pub warning: fn(&Warning) -> String,
}

pub(super) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

static EN: Words = Words {
    failed_before_baseline: "✗ Minimize run failed before the original path was verified",
    baseline_not_reproduced: "✗ Original path did not reproduce in this run",
    minimal_high: "✅ Minimal path found",
    minimal_medium: "⚠ Minimal path found, medium confidence",
    shortest_unproven: "⚠ Shortest reproducing candidate so far — minimality not proven",
    original: "Original:",
    minimal: "Minimal:",
    shortest: "Shortest:",
    baseline: "Baseline:",
    proof: "Proof:",
    report: "Report:",
    why: "Why:",
    why_medium: "Why medium:",
    why_not_proven: "Why not proven:",
    deletions: "Deletions:",
    nothing_produced: "No minimal path was produced; nothing will be written back.",
    not_written_back:
        "Not written back: the run hit an infrastructure failure, so no result may be saved.",
    audit_incomplete: || {
        format!(
            "fixed-point audit incomplete: not every single deletion has {NEGATIVE_PROOF_RUNS} \
             consistent non-reproducing replays"
        )
    },
    only_launch_left: "; no action left to delete (the crash needs only the launch)",
    steps: |count| {
        if count == 1 {
            "1 step".to_owned()
        } else {
            format!("{count} steps")
        }
    },
    baseline_missed: |target| format!("the full replayable path did not reproduce {target}"),
    budget: |attempts, max| {
        if attempts == 1 {
            format!("1 replay of max {max}")
        } else {
            format!("{attempts} replays of max {max}")
        }
    },
    every_deletion: |runs| format!("; every single-deletion candidate {runs}"),
    some_deletions: |proven, total| {
        format!(
            "; {proven} of {total} single-deletion candidates disproved {NEGATIVE_PROOF_RUNS} times"
        )
    },
    proof_line: |summary, hits, total| format!("{summary}, final path {hits}/{total}"),
    reproduced_target: |target, converged| {
        if converged {
            format!("reproduced {target}; converged")
        } else {
            format!("reproduced {target}")
        }
    },
    final_short: |hits, total| {
        format!(
            "final path reproduced {hits} of {total} replays \
             ({HIGH_CONFIDENCE_RUNS}/{HIGH_CONFIDENCE_RUNS} needed)"
        )
    },
    without_step: |step, hits, total| format!("without step {step}: {hits}/{total} reproduced"),
    warning: |warning| warning.to_string(),
};

static ZH_CN: Words = Words {
    failed_before_baseline: "✗ 精简运行在验证原路径之前失败",
    baseline_not_reproduced: "✗ 原路径未在本轮复现",
    minimal_high: "✅ 复现路径精简：最小路径，已收敛",
    minimal_medium: "⚠ 最小路径，已收敛，置信度：中 (medium)",
    shortest_unproven: "⚠ 当前已复现的最短候选——未完成最小性证明",
    original: "原始:",
    minimal: "最小:",
    shortest: "最短候选:",
    baseline: "基线:",
    proof: "验证:",
    report: "报告:",
    why: "原因:",
    why_medium: "为何置信度为中:",
    why_not_proven: "未完成证明的原因:",
    deletions: "单删除候选:",
    nothing_produced: "没有产生最小路径；不会写回任何内容。",
    not_written_back: "未写回：本轮遇到基础设施故障，不得保存任何结果。",
    audit_incomplete: || {
        format!(
            "不动点审计未完成：并非每个单删除候选都有 {NEGATIVE_PROOF_RUNS} 次一致的不复现 replay"
        )
    },
    only_launch_left: "；已没有可删除的动作（该崩溃只需要 launch）",
    steps: |count| format!("{count} 步"),
    baseline_missed: |target| format!("完整的可回放路径未复现 {target}"),
    budget: |attempts, max| format!("共 {attempts} 次 replay（上限 {max}）"),
    every_deletion: |runs| format!("；每个单删除候选 {runs}"),
    some_deletions: |proven, total| {
        format!("；{total} 个单删除候选中 {proven} 个已 {NEGATIVE_PROOF_RUNS} 次一致不复现")
    },
    proof_line: |summary, hits, total| format!("{summary}，最终路径 {hits}/{total}"),
    reproduced_target: |target, converged| {
        if converged {
            format!("命中 {target}，已收敛")
        } else {
            format!("命中 {target}")
        }
    },
    final_short: |hits, total| {
        format!(
            "最终路径 {total} 次 replay 中 {hits} 次复现（需要 {HIGH_CONFIDENCE_RUNS}/{HIGH_CONFIDENCE_RUNS}）"
        )
    },
    without_step: |step, hits, total| format!("删除第 {step} 步：{hits}/{total} 复现"),
    warning: |warning| match warning {
        Warning::BaselineNotReproduced => "原路径未在本轮复现该崩溃".to_owned(),
        Warning::BudgetExhausted { max_replays } => {
            format!("{max_replays} 次 replay 的预算已耗尽，未达不动点，可加大 --max-replays")
        }
        Warning::Flaky { reproduced, total } => {
            format!("偶发：{total} 次 replay 中 {reproduced} 次复现")
        }
        Warning::SignatureDegraded => {
            "签名降级：按 kind、进程、analyzer label 和规范化顶部帧精确匹配，\
                                       而非稳定的 fingerprint"
                .to_owned()
        }
        Warning::CaptureFailed { reason } => format!("日志抓取失败：{reason}"),
        Warning::RuntimeFailed { reason } => format!("回放基础设施失败：{reason}"),
        Warning::Statistical {
            confidence_percent,
            cap,
            unseparated,
        } => {
            let mut text = format!(
                "偶发策略：偶发崩溃的不复现只是统计证据而非证明，置信度最高 medium；\
                 每个单删除候选都重复 replay，直到其 {confidence_percent}% Wilson 区间低于\
                 崩溃率的区间（每个候选最多 {cap} 次）"
            );
            if !unseparated.is_empty() {
                let steps: Vec<String> = unseparated.iter().map(u32::to_string).collect();
                text.push_str(&format!("；未能分开：第 {} 步", steps.join("、")));
            }
            text
        }
    },
};
