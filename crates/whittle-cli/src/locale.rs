//! The language of the CLI's human output: the POSIX environment decides (`LC_ALL`,
//! then `LC_MESSAGES`, then `LANG`; the first non-empty one). `--json` output never
//! depends on it. The CLI's own lines are here; the report's are in whittle-core.

use std::sync::OnceLock;

pub use whittle_core::report_text::Locale;

/// Read once: the environment does not change while the command runs.
pub fn current() -> Locale {
    static LOCALE: OnceLock<Locale> = OnceLock::new();
    *LOCALE.get_or_init(|| Locale::from_posix_env(|name| std::env::var(name).ok()))
}

/// The CLI's own words around the report (prompt, progress, errors).
pub struct CliWords {
    /// Prefix of an error line on stderr.
    pub error: &'static str,
    pub warning: &'static str,
    /// Label of the sidecar line after an approved write-back, padded like the report's.
    pub written: &'static str,
    pub ask_write_back: &'static str,
    pub cancelling: &'static str,
    pub not_written_back: &'static str,
    pub bad_budget: fn(i64) -> String,
    /// "attempt 7/30 · audit · [2,7]" with the phase already worded.
    pub attempt: fn(u32, u32, &str, &str) -> String,
    pub phase: fn(&str) -> String,
}

pub fn words() -> &'static CliWords {
    match current() {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

static EN: CliWords = CliWords {
    error: "error: ",
    warning: "warning: ",
    written: "  Written:  ",
    ask_write_back: "Write the minimized path to crashes.minimized.json? [y/N] ",
    cancelling: "cancelling: finishing the current step, stopping the capture…",
    not_written_back: "the minimized path was not written back: ",
    bad_budget: |got| format!("--max-replays must be an integer >= 1 (got {got})"),
    attempt: |attempt, max, phase, candidate| {
        format!("attempt {attempt}/{max} · {phase} · [{candidate}]")
    },
    phase: |phase| phase.to_owned(),
};

static ZH_CN: CliWords = CliWords {
    error: "错误：",
    warning: "警告：",
    written: "  已写入:   ",
    ask_write_back: "将最小路径写入 crashes.minimized.json？[y/N] ",
    cancelling: "正在取消：完成当前步骤，停止日志抓取…",
    not_written_back: "最小路径未写回：",
    bad_budget: |got| format!("--max-replays 必须是 >= 1 的整数（收到 {got}）"),
    attempt: |attempt, max, phase, candidate| {
        format!("第 {attempt}/{max} 次尝试 · {phase} · [{candidate}]")
    },
    phase: |phase| {
        match phase {
            "baseline" => "基线",
            "bisect" => "二分",
            "one_by_one" => "逐个删",
            "audit" => "不动点审计",
            "confirm" => "最终确认",
            other => other,
        }
        .to_owned()
    },
};
