//! Whittle's Simplified Chinese, in the seed's own words (the glossary of
//! `docs/design.md`): 复现路径精简, 最小路径, 已收敛, 当前已复现的最短候选,
//! 未完成最小性证明, 单删除候选, 偶发, 预算耗尽, 不动点.

use whittle_core::assessment::Warning;
use whittle_core::engine::{
    FailureCause, Phase, SearchStop, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};
use whittle_core::import::{ImportNote, LaunchOption};
use whittle_core::run_end::RunEnd;

use super::shape::{
    Catalogue, CliWords, ExitMeaning, ExitWords, RateWords, ReportWords, StaticWords,
};

pub(super) static ZH_CN: Catalogue = Catalogue {
    report: ReportWords {
        failed_before_baseline: "✗ 精简运行在验证原路径之前失败",
        baseline_not_reproduced: "✗ 原路径未在本轮复现",
        minimal_high: "✅ 复现路径精简：最小路径，已收敛",
        shortest_unproven: "⚠ 当前已复现的最短候选——未完成最小性证明",
        cancelled_before_baseline: "✗ 在验证原路径之前已取消",
        cancelled_shortest: "⚠ 已取消——当前已复现的最短候选，未完成最小性证明",
        failed_shortest: "✗ 因基础设施故障中止——当前已复现的最短候选，未完成最小性证明",
        original: "原始:",
        minimal: "最小:",
        shortest: "最短候选:",
        baseline: "基线:",
        proof: "验证:",
        report: "报告:",
        why: "原因:",
        why_not_proven: "未完成证明的原因:",
        deletions: "单删除候选:",
        nothing_produced: "没有产生最小路径；不会写回任何内容。",
        not_written_back: |cancelled| {
            if cancelled {
                "未写回：本轮已被取消，不得保存任何结果。"
            } else {
                "未写回：本轮遇到基础设施故障，不得保存任何结果。"
            }
        },
        stop: |stop| match stop {
            SearchStop::Cancelled => "用户已取消".to_owned(),
            SearchStop::CaptureFailed { cause } => {
                format!("日志抓取失败：{}", (ZH_CN.report.failure)(cause))
            }
            SearchStop::RuntimeFailed { cause } => {
                format!("回放基础设施失败：{}", (ZH_CN.report.failure)(cause))
            }
        },
        failure: |cause| match cause {
            FailureCause::Tool {
                step: Some(step),
                detail,
            } => format!("第 {step} 步：{detail}"),
            FailureCause::Tool { step: None, detail } | FailureCause::Recorded { detail } => {
                detail.clone()
            }
            FailureCause::Drain { detail } => format!("读取崩溃日志：{detail}"),
            FailureCause::UnknownStep { step } => format!("第 {step} 步不在回放计划中"),
            FailureCause::Capture {
                device: Some(device),
                detail,
            } => format!("{detail}（设备 {device}）"),
            FailureCause::Capture {
                device: None,
                detail,
            } => detail.clone(),
            FailureCause::NotSaved { detail } => format!("该次尝试未能保存：{detail}"),
        },
        unknown_target: "目标崩溃",
        audit_incomplete: || {
            format!(
                "不动点审计未完成：并非每个单删除候选都有 {NEGATIVE_PROOF_RUNS} 次一致的不复现 replay"
            )
        },
        only_launch_left: "；已没有可删除的动作（该崩溃只需要 launch）",
        steps: |count| format!("{count} 步"),
        baseline_missed: |target| format!("完整的可回放路径未复现 {target}"),
        in_process: |process| format!("进程 {process}"),
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
                format!("{max_replays} 次 replay 的预算已耗尽，未达不动点，可加大 replay 预算")
            }
            Warning::Flaky { reproduced, total } => {
                format!("偶发：{total} 次 replay 中 {reproduced} 次复现")
            }
            Warning::SignatureDegraded => {
                "签名降级：按 kind、进程、analyzer label 和规范化顶部帧精确匹配，\
                                           而非稳定的 fingerprint"
                    .to_owned()
            }
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
        resumed: |at, attempts| {
            format!("续跑：{at}，此前已记录 {attempts} 次 replay（中断后继续，已记录的不再重放）")
        },
        reproves: |evidence| {
            format!("本机重新证明：从另一处完成的运行 {evidence} 的最小路径开始；以上每个结论都在本机设备上重放得出")
        },
    },
    rates: RateWords {
        title: "复现率:",
        rate: |rate| {
            let (low, high) = rate.percent_bounds();
            format!(
                "复现 {} 次 / 共 {} 次（{}% 区间 {low}–{high}%）",
                rate.reproduced,
                rate.total,
                rate.confidence_percent()
            )
        },
        final_path: "最终路径",
        full_path: "完整路径",
        without_step: |step| format!("删除第 {step} 步"),
        crash_rate: "崩溃率",
        below: "低于崩溃率",
        not_separated: "未能与崩溃率分开",
        removed_title: "已删除（不含该步而复现的候选）:",
        removed_step: |step, candidate| format!("第 {step} 步：{candidate}"),
    },
    static_suggestion: StaticWords {
        heading: "ⓘ 仅静态建议，置信度低",
        no_live_run: "无现场回放：",
        original: "原始:     ",
        suggested: "建议:     ",
        not_replayed: "  (未回放)",
        rationale: "依据:     ",
        nothing_replayed: "未回放任何步骤，也不会写回任何内容。",
    },
    cli: CliWords {
        error: "错误：",
        warning: "警告：",
        written: "  已写入:   ",
        ask_write_back: "将最小路径写入 crashes.minimized.json？[y/N] ",
        next_reprove: |evidence| {
            format!("下一步：在本机设备上重新证明它，再批准新的运行：whittle minimize --reprove {evidence}")
        },
        newer_kept: "未写入任何内容：crashes.minimized.json 中已有该崩溃更新的批准。如要用本次运行的结果替换它，请加 --replace 再次批准。",
        newer_held: "当前的批准（保留）：",
        newer_replacing: "本次运行将写入：",
        cancelling: "正在取消：完成当前步骤，停止日志抓取…",
        not_written_back: "最小路径未写回：",
        bad_count: |flag, got| format!("{flag} 必须是 >= 1 的整数（收到 {got}）"),
        attempt: |attempt, max, phase, candidate| {
            format!("第 {attempt}/{max} 次尝试 · {phase} · [{candidate}]")
        },
        phase: |phase| match phase {
            Phase::Baseline => "基线",
            Phase::Bisect => "二分",
            Phase::OneByOne => "逐个删",
            Phase::Audit => "不动点审计",
            Phase::Confirm => "最终确认",
        },
        queue_item: |n, total, session, crash| format!("[{n}/{total}] {session} {crash}"),
        queue_resuming: |evidence| format!("  从中断处继续 {evidence}：已记录的尝试不再重放"),
        queue_side_by_side: |devices| {
            format!(
                "并行：{} 台设备各跑一个崩溃组：{}",
                devices.len(),
                devices.join("、")
            )
        },
        import_note,
        queue_columns: ["会话", "崩溃", "结果", "步骤", "尝试", "证据"],
        queue_end: |end| match end {
            RunEnd::Minimized => "最小路径，已收敛",
            RunEnd::Unproven => "当前最短候选（未完成最小性证明）",
            RunEnd::NotReproduced => "未复现",
            RunEnd::Static => "仅静态建议",
            RunEnd::CaptureFailed { .. } => "日志抓取失败",
            RunEnd::RuntimeFailed { .. } => "设备失败",
            RunEnd::Cancelled => "已取消",
        },
        queue_failed: |kind| format!("被拒绝：{kind}"),
        queue_cancelled: "已取消",
        queue_waiting: "未运行",
        queue_already_minimized: "已跳过：已最小化",
        queue_minimized_unchanged: "已跳过：已最小化但尚未批准，此后未改动",
        queue_no_live_run: "已跳过：无法现场回放",
        queue_session_invalid_id: "已跳过：不是会话 ID",
        queue_session_not_found: "已跳过：会话已不存在",
        queue_session_unreadable: "已跳过：会话无法读取",
        hint_more_baseline_tries: |session, crash| {
            format!(
                "提示：{session} {crash} 在唯一一次基线回放中没有以同样方式崩溃；\
                 该崩溃可能是偶发的：请用 --baseline-tries 3（或更多）再运行一次"
            )
        },
        queue_unreadable: |session, why| format!("会话 {session} 未纳入：{why}"),
        queue_empty: "没有需要最小化的崩溃组",
        exit_codes: ExitWords {
            heading: "退出码（所有命令通用；--json 对象以 \"exit\" 字段给出）：",
            proven: ExitMeaning {
                outcome: "已证明",
                covers: "已最小化，证明完整（verify：每次回放都复现；其他命令：已完成）",
            },
            unproven: ExitMeaning {
                outcome: "未证明",
                covers: "找到能复现的路径，但未证明最小（verify：部分回放复现）",
            },
            not_reproduced: ExitMeaning {
                outcome: "未复现",
                covers: "崩溃未复现（import --record：流程运行到结束也未崩溃）",
            },
            refused: ExitMeaning {
                outcome: "已拒绝",
                covers: "参数或配置有误，会话、证据或包不可用；未回放任何步骤",
            },
            failed: ExitMeaning {
                outcome: "失败",
                covers: "设备、服务器、日志抓取或磁盘出错",
            },
            cancelled: ExitMeaning {
                outcome: "已取消",
                covers: "SIGINT（Ctrl-C）、SIGTERM 或 SIGHUP：证据已收尾，可用 --resume 继续",
            },
            stopped: ExitMeaning {
                outcome: "已中止",
                covers: "import --record：回放在流程结束前停止（未找到元素）",
            },
        },
    },
};

fn import_note(note: &ImportNote) -> String {
    let at = |line: Option<u32>| line.map(|l| format!("（第 {l} 行）")).unwrap_or_default();
    match note {
        ImportNote::Hook { hook, line } => {
            format!("流程的 {hook} 钩子（第 {line} 行）未导入：每次重放都从全新启动开始。")
        }
        ImportNote::ExecutionOptions { line } => format!(
            "第 {line} 行的执行选项（\"roboscript\"）未导入：Whittle 严格按顺序重放每个步骤。"
        ),
        ImportNote::LaunchOption { option, line } => format!(
            "流程的 launchApp{}会{}；Whittle 重放时先强制停止应用并保留其数据，因此依赖此项的崩溃可能无法复现。",
            at(*line),
            match option {
                LaunchOption::ClearState => "清除应用数据",
                LaunchOption::ClearKeychain => "清除钥匙串",
                LaunchOption::Permissions => "设置权限",
                LaunchOption::Arguments => "传入启动参数",
            }
        ),
        ImportNote::KeepsRunningApp { line } => format!(
            "流程的 launchApp{}保留正在运行的应用（stopApp: false）；Whittle 重放时总是先强制停止应用。",
            at(*line)
        ),
    }
}
