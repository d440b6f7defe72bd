//! One row per (scenario, strategy, budget), a summary per (strategy, budget), and the
//! plain-text table `whittle bench` prints.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::run::Run;
use super::scenario::{Scenario, ScenarioKind};
use whittle_core::assessment::{assess, IdentityQuality};
use whittle_core::bound::lower_bound;
use whittle_core::model::Confidence;
use whittle_core::strategy::SearchStrategy;

/// The oracle compares exact signatures, as a reliable fingerprint does.
const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub scenario: String,
    pub kind: ScenarioKind,
    pub steps: u32,
    /// Size of the minimal path (essential steps and their prerequisites).
    pub k: u32,
    pub strategy: SearchStrategy,
    pub max_replays: u32,
    /// The replays the search used: what the budget counts, the same on any number of
    /// devices.
    pub replays: u32,
    /// Speculative replays that ran on otherwise idle devices and whose verdicts were
    /// not used (outside the budget).
    pub wasted: u32,
    /// Simulated device time of the wasted replays.
    pub wasted_device_s: f64,
    /// Speculative replays (handed out on predicted outcomes), and how many of them
    /// the search used: the predictor's hits.
    pub guesses: u32,
    pub guesses_used: u32,
    pub lower_bound: u32,
    pub ratio_to_bound: f64,
    /// Simulated device time summed over every replay (all devices).
    pub device_s: f64,
    pub devices: u32,
    /// Simulated wall-clock on `devices` devices (streaming: each device takes its next
    /// job as soon as it reports).
    pub devices_wall_s: f64,
    /// Wall-clock of the seed strategy on one device, same scenario and budget.
    pub seed_1dev_wall_s: f64,
    /// `devices_wall_s / seed_1dev_wall_s`.
    pub wall_ratio_to_seed_1dev: f64,
    /// Wall-clock of the in-process run (engine + oracle), measured by the caller.
    pub in_process_us: u64,
    pub confidence: Option<Confidence>,
    pub converged: bool,
    pub budget_exhausted: bool,
    pub flaky_observed: bool,
    /// The result is exactly the scenario's minimal path.
    pub found_minimal: bool,
}

impl Row {
    /// `run` on its `devices`; `seed_1dev_wall_ms` is the baseline the wall-clock is
    /// compared with.
    pub fn new(
        scenario: &Scenario,
        strategy: SearchStrategy,
        run: &Run,
        seed_1dev_wall_ms: u64,
        in_process_us: u64,
    ) -> Row {
        let k = scenario.k();
        let bound = lower_bound(scenario.steps, k);
        let assessment = assess(&run.result, RELIABLE);
        Row {
            scenario: scenario.name.clone(),
            kind: scenario.kind,
            steps: scenario.steps,
            k,
            strategy,
            max_replays: run.result.max_replays,
            replays: run.result.attempts,
            wasted: run.wasted,
            wasted_device_s: ms_to_s(
                run.replays
                    .iter()
                    .filter(|r| !r.consumed)
                    .map(|r| r.device_ms)
                    .sum(),
            ),
            guesses: count(run.replays.iter().filter(|r| r.speculative)),
            guesses_used: count(run.replays.iter().filter(|r| r.speculative && r.consumed)),
            lower_bound: bound,
            ratio_to_bound: f64::from(run.result.attempts) / f64::from(bound.max(1)),
            device_s: ms_to_s(run.device_ms),
            devices: run.devices,
            devices_wall_s: ms_to_s(run.wall_ms),
            seed_1dev_wall_s: ms_to_s(seed_1dev_wall_ms),
            wall_ratio_to_seed_1dev: run.wall_ms as f64 / (seed_1dev_wall_ms.max(1)) as f64,
            in_process_us,
            confidence: assessment.confidence,
            converged: assessment.converged,
            budget_exhausted: run.result.flags.budget_exhausted,
            flaky_observed: run.result.flags.flaky_observed,
            found_minimal: run.result.current == scenario.minimal(),
        }
    }
}

fn count<T>(items: impl Iterator<Item = T>) -> u32 {
    u32::try_from(items.count()).unwrap_or(u32::MAX)
}

fn ms_to_s(ms: u64) -> f64 {
    // Device times stay far below 2^53 ms.
    ms as f64 / 1000.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub strategy: SearchStrategy,
    pub max_replays: u32,
    pub scenarios: usize,
    pub converged: usize,
    pub high: usize,
    pub found_minimal: usize,
    /// Median replays / lower bound over the converged runs; `None` when none converged.
    pub median_ratio_to_bound: Option<f64>,
    pub total_replays: u64,
    pub wasted: u64,
    pub wasted_device_s: f64,
    /// Share of the speculative replays the search used; `None` without any.
    pub guess_hit_rate: Option<f64>,
    pub device_s: f64,
    pub devices_wall_s: f64,
    /// Median of `wall_ratio_to_seed_1dev` over the runs that reached high confidence;
    /// `None` when none did (there is nothing to compare, not an infinitely fast run).
    pub median_wall_ratio_high: Option<f64>,
}

/// One summary per (strategy, budget), in first-seen order.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut keys: Vec<(SearchStrategy, u32)> = Vec::new();
    for row in rows {
        if !keys.contains(&(row.strategy, row.max_replays)) {
            keys.push((row.strategy, row.max_replays));
        }
    }
    keys.into_iter()
        .map(|(strategy, max_replays)| {
            let group: Vec<&Row> = rows
                .iter()
                .filter(|r| r.strategy == strategy && r.max_replays == max_replays)
                .collect();
            // A run cut by its budget would look cheap: only converged runs count.
            let mut ratios: Vec<f64> = group
                .iter()
                .filter(|r| r.converged)
                .map(|r| r.ratio_to_bound)
                .collect();
            let mut wall_ratios: Vec<f64> = group
                .iter()
                .filter(|r| r.confidence == Some(Confidence::High))
                .map(|r| r.wall_ratio_to_seed_1dev)
                .collect();
            Summary {
                strategy,
                max_replays,
                scenarios: group.len(),
                converged: group.iter().filter(|r| r.converged).count(),
                high: group
                    .iter()
                    .filter(|r| r.confidence == Some(Confidence::High))
                    .count(),
                found_minimal: group.iter().filter(|r| r.found_minimal).count(),
                median_ratio_to_bound: median(&mut ratios),
                total_replays: group.iter().map(|r| u64::from(r.replays)).sum(),
                wasted: group.iter().map(|r| u64::from(r.wasted)).sum(),
                wasted_device_s: group.iter().map(|r| r.wasted_device_s).sum(),
                guess_hit_rate: {
                    let guesses: u64 = group.iter().map(|r| u64::from(r.guesses)).sum();
                    let used: u64 = group.iter().map(|r| u64::from(r.guesses_used)).sum();
                    (guesses > 0).then(|| used as f64 / guesses as f64)
                },
                device_s: group.iter().map(|r| r.device_s).sum(),
                devices_wall_s: group.iter().map(|r| r.devices_wall_s).sum(),
                median_wall_ratio_high: median(&mut wall_ratios),
            }
        })
        .collect()
}

/// `None` for no values: a median of nothing is no figure at all.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// A ratio as the tables print it: `n/a` where it has no result to rest on.
pub fn ratio_text(ratio: Option<f64>) -> String {
    ratio.map_or_else(|| "n/a".to_owned(), |r| format!("{r:.2}"))
}

fn confidence_text(confidence: Option<Confidence>) -> &'static str {
    confidence.map_or("none", Confidence::as_str)
}

/// The per-run table and the summary, as Markdown tables (readable in a terminal too).
pub fn table(rows: &[Row]) -> String {
    let devices = rows.first().map_or(1, |r| r.devices);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| scenario | n | k | strategy | budget | replays | wasted | bound | ×bound | device s | {devices}-dev wall s | × seed 1-dev wall | in-process ms | confidence | minimal |"
    );
    let _ = writeln!(
        out,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.1} | {:.1} | {:.2} | {:.2} | {} | {} |",
            r.scenario,
            r.steps,
            r.k,
            r.strategy,
            r.max_replays,
            r.replays,
            r.wasted,
            r.lower_bound,
            r.ratio_to_bound,
            r.device_s,
            r.devices_wall_s,
            r.wall_ratio_to_seed_1dev,
            r.in_process_us as f64 / 1000.0,
            confidence_text(r.confidence),
            if r.found_minimal { "yes" } else { "no" },
        );
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "| strategy | budget | converged | high | minimal found | median ×bound (converged) | replays | wasted | wasted device s | guesses right | device s | {devices}-dev wall s | median {devices}-dev wall × seed 1-dev (high) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for s in summarize(rows) {
        let _ = writeln!(
            out,
            "| {} | {} | {}/{} | {}/{} | {}/{} | {} | {} | {} | {:.0} | {} | {:.0} | {:.0} | {} |",
            s.strategy,
            s.max_replays,
            s.converged,
            s.scenarios,
            s.high,
            s.scenarios,
            s.found_minimal,
            s.scenarios,
            ratio_text(s.median_ratio_to_bound),
            s.total_replays,
            s.wasted,
            s.wasted_device_s,
            s.guess_hit_rate
                .map_or_else(|| "n/a".to_owned(), |r| format!("{:.1} %", r * 100.0)),
            s.device_s,
            s.devices_wall_s,
            ratio_text(s.median_wall_ratio_high),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate, simulate_on, suite, OracleTiming};

    #[test]
    fn rows_and_summary_agree_with_the_runs() {
        let scenarios = suite(true);
        let mut rows = Vec::new();
        for scenario in &scenarios {
            for (strategy, budget) in [(SearchStrategy::Seed, 30), (SearchStrategy::Binary, 2000)] {
                let seed = simulate(
                    scenario,
                    SearchStrategy::Seed,
                    budget,
                    OracleTiming::default(),
                )
                .unwrap();
                let run =
                    simulate_on(scenario, strategy, budget, OracleTiming::default(), 3).unwrap();
                rows.push(Row::new(scenario, strategy, &run, seed.wall_ms, 5));
            }
        }
        let summary = summarize(&rows);
        assert_eq!(summary.len(), 2);
        assert_eq!(summary[0].strategy, SearchStrategy::Seed);
        assert_eq!(summary[0].max_replays, 30);
        assert_eq!(summary[1].scenarios, scenarios.len());
        for s in &summary {
            let total: u64 = rows
                .iter()
                .filter(|r| r.strategy == s.strategy)
                .map(|r| u64::from(r.replays))
                .sum();
            assert_eq!(s.total_replays, total);
        }
        for row in &rows {
            assert!(row.replays <= row.max_replays);
            assert!(row.devices_wall_s <= row.device_s);
            assert!(
                row.wasted <= row.max_replays,
                "speculation within its limit"
            );
            assert_eq!(
                row.wasted,
                row.guesses - row.guesses_used,
                "only a guess is ever wasted"
            );
            let ratio = row.devices_wall_s / row.seed_1dev_wall_s;
            assert!((row.wall_ratio_to_seed_1dev - ratio).abs() < 1e-9);
            assert!(!(row.converged && row.budget_exhausted));
        }
        let text = table(&rows);
        assert_eq!(
            text.lines().filter(|l| l.starts_with("| plain-n8")).count(),
            2
        );
        assert!(text.contains("3-dev wall s"), "{text}");
        assert!(summary
            .iter()
            .all(|s| s.median_wall_ratio_high.is_some_and(|r| r > 0.0 && r < 1.0)));
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
        assert_eq!(ratio_text(None), "n/a");
        assert_eq!(ratio_text(Some(0.349)), "0.35");
    }
}
