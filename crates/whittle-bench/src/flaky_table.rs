//! The flaky-crash table of `whittle bench --flaky` (issue 21): crashes that show 90,
//! 70 or 50 % of the time on paths of 16, 32 and 64 steps with 1–3 essential steps,
//! many seeds per row, for every strategy, next to the same sessions with a crash that
//! always shows (the deterministic case the replay counts are compared with).
//!
//! Per row: how many runs reached a result (the full path reproduced within the
//! baseline tries), the replays to a result (median over those runs), how often an
//! essential step was removed (a wrong deletion), how often a step that is not
//! essential was kept, and how often the result was rated high.

use serde::{Deserialize, Serialize};

use super::oracle::{OracleTiming, SimOracle};
use super::rng::SplitMix64;
use super::scenario::{pick_steps, Scenario, ScenarioKind};
use whittle_core::assessment::{assess, IdentityQuality};
use whittle_core::engine::{EngineError, SearchResult};
use whittle_core::model::Confidence;
use whittle_core::strategy::{run_offline, SearchOptions, SearchStrategy};

const RELIABLE: IdentityQuality = IdentityQuality {
    fingerprint_reliable: true,
    signature_degraded: false,
};

/// What to measure. [`FlakyBench::full`] is the documented table; `quick` a smoke run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlakyBench {
    /// Crash rates in percent; 100 (the deterministic case) is always measured too.
    pub percents: Vec<u32>,
    pub steps: Vec<u32>,
    pub essential: Vec<u32>,
    pub seeds: u32,
    pub max_replays: u32,
    pub baseline_tries: u32,
}

impl FlakyBench {
    pub fn full(max_replays: u32, baseline_tries: u32) -> FlakyBench {
        FlakyBench {
            percents: vec![90, 70, 50],
            steps: vec![16, 32, 64],
            essential: vec![1, 2, 3],
            seeds: 200,
            max_replays,
            baseline_tries,
        }
    }

    pub fn quick(max_replays: u32, baseline_tries: u32) -> FlakyBench {
        FlakyBench {
            percents: vec![50],
            steps: vec![16],
            essential: vec![2],
            seeds: 12,
            max_replays,
            baseline_tries,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyRow {
    pub strategy: SearchStrategy,
    pub percent: u32,
    pub steps: u32,
    pub k: u32,
    pub runs: u32,
    /// Runs whose full path reproduced within the baseline tries.
    pub results: u32,
    /// Median replays over the runs with a result.
    pub median_replays: f64,
    /// `median_replays` over the same strategy's median on the deterministic sessions.
    pub ratio_to_deterministic: f64,
    /// Share of results missing an essential step.
    pub wrong_deletions: f64,
    /// Share of results keeping a step that is not essential.
    pub kept_non_essential: f64,
    /// Share of results rated high.
    pub rated_high: f64,
}

/// The session of one seed: `k` essential steps of `steps`, drawn from the seed.
fn scenario(percent: u32, steps: u32, k: u32, seed: u32) -> Scenario {
    let id = u64::from(steps) << 40 | u64::from(k) << 32 | u64::from(seed);
    let essential = pick_steps(&mut SplitMix64::new(id ^ 0xF1A4_C0DE), steps, k);
    Scenario {
        name: format!("flaky-n{steps}-k{k}-p{percent}-s{seed}"),
        kind: if percent < 100 {
            ScenarioKind::Flaky
        } else {
            ScenarioKind::Plain
        },
        steps,
        essential,
        prerequisites: Vec::new(),
        reproduce_percent: percent,
        crash_delay_ms: 0,
        // The same verdict draws for every strategy and rate of one seed.
        seed: id,
    }
}

/// One strategy on one session, to its result.
pub fn run_once(
    scenario: &Scenario,
    strategy: SearchStrategy,
    max_replays: u32,
    options: SearchOptions,
) -> Result<SearchResult, EngineError> {
    let mut engine = strategy.reducer_with((1..=scenario.steps).collect(), max_replays, options)?;
    let mut oracle = SimOracle::new(scenario, OracleTiming::default());
    Ok(run_offline(engine.as_mut(), |request| {
        oracle.replay_in_turn(&request.candidate).outcome
    }))
}

struct Tally {
    runs: u32,
    replays: Vec<f64>,
    wrong: u32,
    kept: u32,
    high: u32,
}

fn tally(
    bench: &FlakyBench,
    strategy: SearchStrategy,
    percent: u32,
    steps: u32,
    k: u32,
) -> Result<Tally, EngineError> {
    let options = SearchOptions {
        baseline_tries: bench.baseline_tries,
    };
    let mut t = Tally {
        runs: 0,
        replays: Vec::new(),
        wrong: 0,
        kept: 0,
        high: 0,
    };
    for seed in 0..bench.seeds {
        let scenario = scenario(percent, steps, k, seed);
        let result = run_once(&scenario, strategy, bench.max_replays, options)?;
        t.runs += 1;
        if !result.baseline_reproduced {
            continue;
        }
        t.replays.push(f64::from(result.attempts));
        let essential = scenario.minimal();
        t.wrong += u32::from(essential.iter().any(|s| !result.current.contains(s)));
        t.kept += u32::from(result.current.iter().any(|s| !essential.contains(s)));
        t.high += u32::from(assess(&result, RELIABLE).confidence == Some(Confidence::High));
    }
    Ok(t)
}

/// Every row of `bench`: for each strategy, the deterministic rows first, then each rate.
pub fn flaky_table(bench: &FlakyBench) -> Result<Vec<FlakyRow>, EngineError> {
    let mut percents = vec![100];
    percents.extend(bench.percents.iter().copied().filter(|&p| p < 100));
    let mut rows = Vec::new();
    for strategy in SearchStrategy::ALL {
        for &steps in &bench.steps {
            for &k in &bench.essential {
                let mut deterministic = 0.0;
                for &percent in &percents {
                    let mut t = tally(bench, strategy, percent, steps, k)?;
                    let results = u32::try_from(t.replays.len()).unwrap_or(u32::MAX);
                    // Every tallied run counts its replays: empty only with no runs.
                    let median_replays = super::report::median(&mut t.replays).unwrap_or(0.0);
                    if percent == 100 {
                        deterministic = median_replays;
                    }
                    let share = |n: u32| f64::from(n) / f64::from(results.max(1));
                    rows.push(FlakyRow {
                        strategy,
                        percent,
                        steps,
                        k,
                        runs: t.runs,
                        results,
                        median_replays,
                        ratio_to_deterministic: median_replays / deterministic.max(1.0),
                        wrong_deletions: share(t.wrong),
                        kept_non_essential: share(t.kept),
                        rated_high: share(t.high),
                    });
                }
            }
        }
    }
    Ok(rows)
}

/// The rows as a Markdown table.
pub fn flaky_markdown(rows: &[FlakyRow]) -> String {
    let mut out = String::from(
        "| strategy | crash rate | n | k | results | median replays | × deterministic | wrong deletions | kept non-essential | rated high |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} % | {} | {} | {}/{} | {:.1} | {:.2} | {:.1} % | {:.1} % | {:.1} % |\n",
            r.strategy,
            r.percent,
            r.steps,
            r.k,
            r.results,
            r.runs,
            r.median_replays,
            r.ratio_to_deterministic,
            r.wrong_deletions * 100.0,
            r.kept_non_essential * 100.0,
            r.rated_high * 100.0
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{flaky_goal, flaky_summary, flaky_summary_markdown};

    #[test]
    fn sessions_repeat_per_seed_and_differ_between_seeds() {
        assert_eq!(scenario(50, 32, 3, 7), scenario(50, 32, 3, 7));
        assert_ne!(
            scenario(50, 32, 3, 7).essential,
            scenario(50, 32, 3, 8).essential
        );
        // The rate changes the draws' threshold, not the session.
        assert_eq!(
            scenario(50, 32, 3, 7).essential,
            scenario(90, 32, 3, 7).essential
        );
        assert_eq!(scenario(100, 16, 2, 0).kind, ScenarioKind::Plain);
    }

    #[test]
    fn quick_table_has_every_strategy_and_the_deterministic_case() {
        let rows = flaky_table(&FlakyBench::quick(2000, 5)).unwrap();
        // 3 strategies × (100 % and 50 %).
        assert_eq!(rows.len(), 6);
        for r in &rows {
            // A step leaves only on a live hit, and no hit lacks an essential step.
            assert_eq!(r.wrong_deletions, 0.0, "{r:?}");
            assert!(r.results <= r.runs && r.results > 0, "{r:?}");
        }
        let flaky: Vec<&FlakyRow> = rows
            .iter()
            .filter(|r| r.strategy == SearchStrategy::Flaky)
            .collect();
        assert!(flaky.iter().all(|r| r.rated_high == 0.0));
        let deterministic = rows
            .iter()
            .find(|r| r.strategy == SearchStrategy::Binary && r.percent == 100)
            .unwrap();
        assert_eq!(deterministic.kept_non_essential, 0.0);
        assert_eq!(deterministic.rated_high, 1.0);
        assert_eq!(flaky_goal(&rows).len(), 1);
        let summary = flaky_summary(&rows);
        assert_eq!(summary.len(), 6);
        let binary_100 = summary
            .iter()
            .find(|s| s.strategy == SearchStrategy::Binary && s.percent == 100)
            .unwrap();
        assert_eq!(binary_100.ratio_to_deterministic, 1.0);
        assert_eq!(binary_100.replays, deterministic.median_replays);
        assert_eq!(
            flaky_summary_markdown(&summary).lines().count(),
            2 + summary.len()
        );
        let table = flaky_markdown(&rows);
        assert_eq!(table.lines().count(), 2 + rows.len());
    }
}
