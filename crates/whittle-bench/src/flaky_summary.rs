//! What the flaky-crash table adds up to: one line per (strategy, crash rate), and the
//! issue-21 goal for `flaky` at a 50 % crash rate per (n, k).

use serde::{Deserialize, Serialize};

use super::flaky_table::FlakyRow;
use whittle_core::strategy::SearchStrategy;

/// One line per (strategy, crash rate) over every (n, k) of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakySummary {
    pub strategy: SearchStrategy,
    pub percent: u32,
    /// Results over runs.
    pub results: f64,
    /// Sum over (n, k) of the median replays (the table's replays, added up).
    pub replays: f64,
    pub ratio_to_deterministic: f64,
    pub wrong_deletions: f64,
    pub kept_non_essential: f64,
    pub rated_high: f64,
}

pub fn flaky_summary(rows: &[FlakyRow]) -> Vec<FlakySummary> {
    let mut keys: Vec<(SearchStrategy, u32)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.strategy, r.percent)) {
            keys.push((r.strategy, r.percent));
        }
    }
    keys.into_iter()
        .map(|(strategy, percent)| {
            let group: Vec<&FlakyRow> = rows
                .iter()
                .filter(|r| r.strategy == strategy && r.percent == percent)
                .collect();
            let results: u32 = group.iter().map(|r| r.results).sum();
            let runs: u32 = group.iter().map(|r| r.runs).sum();
            // Shares weighted by results, as if every run of the group were one row.
            let weighted = |share: fn(&FlakyRow) -> f64| {
                group
                    .iter()
                    .map(|r| share(r) * f64::from(r.results))
                    .sum::<f64>()
                    / f64::from(results.max(1))
            };
            let replays: f64 = group.iter().map(|r| r.median_replays).sum();
            let deterministic: f64 = rows
                .iter()
                .filter(|r| r.strategy == strategy && r.percent == 100)
                .map(|r| r.median_replays)
                .sum();
            FlakySummary {
                strategy,
                percent,
                results: f64::from(results) / f64::from(runs.max(1)),
                replays,
                ratio_to_deterministic: replays / deterministic.max(1.0),
                wrong_deletions: weighted(|r| r.wrong_deletions),
                kept_non_essential: weighted(|r| r.kept_non_essential),
                rated_high: weighted(|r| r.rated_high),
            }
        })
        .collect()
}

pub fn flaky_summary_markdown(summary: &[FlakySummary]) -> String {
    let mut out = String::from(
        "| strategy | crash rate | results | replays (sum of medians) | × deterministic | wrong deletions | kept non-essential | rated high |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for s in summary {
        out.push_str(&format!(
            "| {} | {} % | {:.1} % | {:.0} | {:.2} | {:.1} % | {:.1} % | {:.1} % |\n",
            s.strategy,
            s.percent,
            s.results * 100.0,
            s.replays,
            s.ratio_to_deterministic,
            s.wrong_deletions * 100.0,
            s.kept_non_essential * 100.0,
            s.rated_high * 100.0
        ));
    }
    out
}

/// The goal for `flaky` at a 50 % crash rate, per (n, k): wrong deletions at
/// most 5 % and at most 3× the replays of the deterministic case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyGoal {
    pub steps: u32,
    pub k: u32,
    pub wrong_deletions: f64,
    pub ratio_to_deterministic: f64,
    /// `median replays at 50 %` over `binary`'s median on the deterministic sessions.
    pub ratio_to_binary_deterministic: f64,
    pub met: bool,
}

pub fn flaky_goal(rows: &[FlakyRow]) -> Vec<FlakyGoal> {
    let find = |strategy: SearchStrategy, percent: u32, steps: u32, k: u32| {
        rows.iter().find(|r| {
            r.strategy == strategy && r.percent == percent && r.steps == steps && r.k == k
        })
    };
    rows.iter()
        .filter(|r| r.strategy == SearchStrategy::Flaky && r.percent == 50)
        .map(|r| {
            let binary =
                find(SearchStrategy::Binary, 100, r.steps, r.k).map_or(0.0, |b| b.median_replays);
            FlakyGoal {
                steps: r.steps,
                k: r.k,
                wrong_deletions: r.wrong_deletions,
                ratio_to_deterministic: r.ratio_to_deterministic,
                ratio_to_binary_deterministic: r.median_replays / binary.max(1.0),
                met: r.wrong_deletions <= 0.05 && r.ratio_to_deterministic <= 3.0,
            }
        })
        .collect()
}
