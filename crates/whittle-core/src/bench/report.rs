//! One row per (scenario, strategy, budget), a summary per (strategy, budget), and the
//! plain-text table `whittle bench` prints.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::bound::lower_bound;
use super::devices::devices_wall_ms;
use super::run::Run;
use super::scenario::{Scenario, ScenarioKind};
use crate::assessment::{assess, IdentityQuality};
use crate::model::Confidence;
use crate::strategy::Strategy;

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
    pub strategy: Strategy,
    pub max_replays: u32,
    pub replays: u32,
    pub lower_bound: u32,
    pub ratio_to_bound: f64,
    /// Simulated device time, one device.
    pub device_s: f64,
    pub devices: u32,
    /// Modelled wall-clock with `devices` devices (see `devices_wall_ms`).
    pub devices_wall_s: f64,
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
    pub fn new(
        scenario: &Scenario,
        strategy: Strategy,
        run: &Run,
        devices: u32,
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
            lower_bound: bound,
            ratio_to_bound: f64::from(run.result.attempts) / f64::from(bound.max(1)),
            device_s: ms_to_s(run.device_ms),
            devices,
            devices_wall_s: ms_to_s(devices_wall_ms(&run.replays, devices)),
            in_process_us,
            confidence: assessment.confidence,
            converged: assessment.converged,
            budget_exhausted: run.result.budget_exhausted,
            flaky_observed: run.result.flaky_observed,
            found_minimal: run.result.current == scenario.minimal(),
        }
    }
}

fn ms_to_s(ms: u64) -> f64 {
    // Device times stay far below 2^53 ms.
    ms as f64 / 1000.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub strategy: Strategy,
    pub max_replays: u32,
    pub scenarios: usize,
    pub converged: usize,
    pub high: usize,
    pub found_minimal: usize,
    /// Median replays / lower bound over the converged runs.
    pub median_ratio_to_bound: f64,
    pub total_replays: u64,
    pub device_s: f64,
    pub devices_wall_s: f64,
}

/// One summary per (strategy, budget), in first-seen order.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut keys: Vec<(Strategy, u32)> = Vec::new();
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
                device_s: group.iter().map(|r| r.device_s).sum(),
                devices_wall_s: group.iter().map(|r| r.devices_wall_s).sum(),
            }
        })
        .collect()
}

pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
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
        "| scenario | n | k | strategy | budget | replays | bound | ×bound | device s | model {devices}-dev s | in-process ms | confidence | minimal |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.1} | {:.1} | {:.2} | {} | {} |",
            r.scenario,
            r.steps,
            r.k,
            r.strategy,
            r.max_replays,
            r.replays,
            r.lower_bound,
            r.ratio_to_bound,
            r.device_s,
            r.devices_wall_s,
            r.in_process_us as f64 / 1000.0,
            confidence_text(r.confidence),
            if r.found_minimal { "yes" } else { "no" },
        );
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "| strategy | budget | converged | high | minimal found | median ×bound (converged) | replays | device s | model {devices}-dev s |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    for s in summarize(rows) {
        let _ = writeln!(
            out,
            "| {} | {} | {}/{} | {}/{} | {}/{} | {:.2} | {} | {:.0} | {:.0} |",
            s.strategy,
            s.max_replays,
            s.converged,
            s.scenarios,
            s.high,
            s.scenarios,
            s.found_minimal,
            s.scenarios,
            s.median_ratio_to_bound,
            s.total_replays,
            s.device_s,
            s.devices_wall_s,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{simulate, suite, Timing};

    #[test]
    fn rows_and_summary_agree_with_the_runs() {
        let scenarios = suite(true);
        let mut rows = Vec::new();
        for scenario in &scenarios {
            for (strategy, budget) in [(Strategy::Seed, 30), (Strategy::Binary, 2000)] {
                let run = simulate(scenario, strategy, budget, Timing::default()).unwrap();
                rows.push(Row::new(scenario, strategy, &run, 3, 5));
            }
        }
        let summary = summarize(&rows);
        assert_eq!(summary.len(), 2);
        assert_eq!(summary[0].strategy, Strategy::Seed);
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
            assert!(!(row.converged && row.budget_exhausted));
        }
        let text = table(&rows);
        assert_eq!(
            text.lines().filter(|l| l.starts_with("| plain-n8")).count(),
            2
        );
        assert!(text.contains("model 3-dev s"), "{text}");
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
