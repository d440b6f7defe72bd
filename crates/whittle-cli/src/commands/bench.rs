//! `whittle bench`: every search strategy on the generated scenario suite against the
//! in-process simulator model (issue #7), with the engine's own overheads measured in
//! this process. Nothing touches a device; the only files written are the ones asked for.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use thiserror::Error;
use whittle_bench::{
    decide_all, flaky_goal, flaky_markdown, flaky_summary, flaky_summary_markdown, flaky_table,
    plot, ratio_text, simulate, simulate_on, suite, summarize, table, FlakyBench, FlakyGoal,
    FlakyRow, FlakySummary, OracleTiming, Row, Shape, Summary,
};
use whittle_core::session::{load_session, SessionError};
use whittle_core::strategy::SearchStrategy;
use whittle_core::EngineError;

use crate::cli::BenchCommand;
use crate::exit::Exit;

/// The shortest replay the model has (launch + settle, no action): overheads are
/// compared with it, so the ratios are the largest they can be.
const SHORTEST_REPLAY_MS: f64 = 900.0;
/// The seed's default budget, reported next to the large one.
const DEFAULT_BUDGET: u32 = 30;
const PARSE_STEPS: u32 = 10_000;

#[derive(Debug, Error)]
enum BenchError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create the temporary session for the parse figure: {0}")]
    TempSession(std::io::Error),
    #[error("the generated {PARSE_STEPS}-step session did not parse: {0}")]
    Parse(#[from] SessionError),
    #[error("engine input refused: {0}")]
    Engine(#[from] EngineError),
}

#[derive(Debug, Serialize)]
struct DecisionCost {
    strategy: SearchStrategy,
    shape: &'static str,
    steps: u32,
    replays: u32,
    us_per_replay: f64,
    /// `us_per_replay` over the shortest simulated replay (900 ms).
    share_of_shortest_replay: f64,
}

#[derive(Debug, Serialize)]
struct ParseCost {
    steps: u32,
    ms: f64,
    share_of_shortest_replay: f64,
}

#[derive(Debug, Serialize)]
struct Report {
    timing: OracleTiming,
    devices: u32,
    devices_model: &'static str,
    rows: Vec<Row>,
    summary: Vec<Summary>,
    decision_cost: Vec<DecisionCost>,
    parse_cost: ParseCost,
}

const DEVICES_MODEL: &str = "the parallel scheduler of the live run, simulated: the reducer's \
request plus speculative ones (predicted outcomes) run on up to N devices, each device taking \
the next job as soon as it reports; outcomes are consumed in the strategy's order, so the \
search makes the same decisions as on one device; wasted speculative replays ran on \
otherwise idle devices and are counted apart, outside the budget";

pub fn run(args: &BenchCommand) -> Exit {
    match bench(args) {
        Ok(()) => Exit::Proven,
        Err(e @ BenchError::Write { .. }) => {
            eprintln!("error: {e}");
            Exit::Refused
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Infrastructure
        }
    }
}

fn bench(args: &BenchCommand) -> Result<(), BenchError> {
    if args.flaky {
        return flaky(args);
    }
    let strategies: Vec<SearchStrategy> = match args.strategy {
        Some(strategy) => vec![strategy],
        None => SearchStrategy::ALL.to_vec(),
    };
    let mut budgets = vec![DEFAULT_BUDGET, args.max_replays];
    budgets.dedup();
    let timing = OracleTiming::default();
    let mut rows = Vec::new();
    for scenario in suite(args.quick) {
        // The baseline every wall-clock is compared with: the seed on one device.
        let seed_walls = budgets
            .iter()
            .map(|&budget| Ok(simulate(&scenario, SearchStrategy::Seed, budget, timing)?.wall_ms))
            .collect::<Result<Vec<u64>, BenchError>>()?;
        for &strategy in &strategies {
            for (&budget, &seed_wall) in budgets.iter().zip(&seed_walls) {
                let started = Instant::now();
                let run = simulate_on(&scenario, strategy, budget, timing, args.devices)?;
                let micros = micros(started.elapsed());
                rows.push(Row::new(&scenario, strategy, &run, seed_wall, micros));
            }
        }
    }
    let report = Report {
        timing,
        devices: args.devices,
        devices_model: DEVICES_MODEL,
        summary: summarize(&rows),
        decision_cost: decision_costs(&strategies, args.quick)?,
        parse_cost: parse_cost()?,
        rows,
    };
    print_report(&report);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).unwrap_or_else(|e| {
            json!({ "error": format!("cannot serialize the report: {e}") }).to_string()
        });
        write(path, &text)?;
    }
    if let Some(path) = &args.svg {
        write(path, &plot(&report.rows))?;
    }
    Ok(())
}

#[derive(Debug, Serialize)]
struct FlakyReport {
    bench: FlakyBench,
    model: &'static str,
    rows: Vec<FlakyRow>,
    summary: Vec<FlakySummary>,
    goal: Vec<FlakyGoal>,
}

const FLAKY_MODEL: &str = "the simulator model: the crash needs every essential step and then \
shows with the row's probability on each replay (one seeded draw per replay, the same draws for \
every strategy); nothing else produces the target signature";

/// `whittle bench --flaky`: the flaky-crash table and the issue-21 goal for `flaky`.
fn flaky(args: &BenchCommand) -> Result<(), BenchError> {
    let mut bench = if args.quick {
        FlakyBench::quick(args.max_replays, args.baseline_tries)
    } else {
        FlakyBench::full(args.max_replays, args.baseline_tries)
    };
    if !args.quick {
        bench.seeds = args.seeds;
    }
    let mut rows = flaky_table(&bench)?;
    if let Some(strategy) = args.strategy {
        rows.retain(|r| r.strategy == strategy || r.strategy == SearchStrategy::Flaky);
    }
    let goal = flaky_goal(&rows);
    let summary = flaky_summary(&rows);
    println!(
        "Flaky crashes, {} sessions per row, budget {}, {} baseline tries for every strategy; {}.\n",
        bench.seeds, bench.max_replays, bench.baseline_tries, FLAKY_MODEL
    );
    print!("{}", flaky_markdown(&rows));
    println!("\nPer strategy and crash rate, over every n and k:\n");
    print!("{}", flaky_summary_markdown(&summary));
    println!("\nGoal for flaky at a 50 % crash rate: wrong deletions <= 5 % and <= 3x the replays of the deterministic case.\n");
    println!("| n | k | wrong deletions | × flaky deterministic | × binary deterministic | met |");
    println!("|---|---|---|---|---|---|");
    for g in &goal {
        println!(
            "| {} | {} | {:.1} % | {:.2} | {:.2} | {} |",
            g.steps,
            g.k,
            g.wrong_deletions * 100.0,
            g.ratio_to_deterministic,
            g.ratio_to_binary_deterministic,
            if g.met { "yes" } else { "no" }
        );
    }
    if let Some(path) = &args.json {
        let report = FlakyReport {
            bench,
            model: FLAKY_MODEL,
            rows,
            summary,
            goal,
        };
        let text = serde_json::to_string_pretty(&report).unwrap_or_else(|e| {
            json!({ "error": format!("cannot serialize the report: {e}") }).to_string()
        });
        write(path, &text)?;
    }
    Ok(())
}

fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

fn write(path: &Path, text: &str) -> Result<(), BenchError> {
    std::fs::write(path, text).map_err(|source| BenchError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn print_report(report: &Report) {
    println!(
        "Simulated device: launch {} ms + {} ms per action + {} ms settle per replay. \
         Budgets: the seed's default {DEFAULT_BUDGET} and a large one.",
        report.timing.launch_ms, report.timing.action_ms, report.timing.settle_ms
    );
    println!("\"{}-dev wall s\" is {}.\n", report.devices, DEVICES_MODEL);
    print!("{}", table(&report.rows));
    println!();
    for s in &report.summary {
        println!(
            "{} (budget {}) on {} device(s): {} replays used, {} speculative ones not needed ({:.0} device-s, outside the budget); median wall-clock to a high-confidence result = {}× the seed on 1 device.",
            s.strategy,
            s.max_replays,
            report.devices,
            s.total_replays,
            s.wasted,
            s.wasted_device_s,
            ratio_text(s.median_wall_ratio_high)
        );
    }
    println!(
        "\nOverhead, measured in this process (share = of the shortest simulated replay, 0.9 s):\n"
    );
    println!("| strategy | workload | steps | replays | µs per replay | share |");
    println!("|---|---|---|---|---|---|");
    for d in &report.decision_cost {
        println!(
            "| {} | {} | {} | {} | {:.1} | {:.1e} |",
            d.strategy, d.shape, d.steps, d.replays, d.us_per_replay, d.share_of_shortest_replay
        );
    }
    println!(
        "\nParsing a generated {}-step session (load_session): {:.1} ms ({:.1e} of the shortest replay).",
        report.parse_cost.steps, report.parse_cost.ms, report.parse_cost.share_of_shortest_replay
    );
}

/// The workloads of `benches/engine.rs`, timed once each (best of three runs).
fn decision_costs(
    strategies: &[SearchStrategy],
    quick: bool,
) -> Result<Vec<DecisionCost>, BenchError> {
    let sizes: &[u32] = if quick { &[10, 100] } else { &[10, 100, 1000] };
    let mut costs = Vec::new();
    for &strategy in strategies {
        for shape in [Shape::Bisect, Shape::OneByOne] {
            for &steps in sizes {
                let mut best = Duration::MAX;
                let mut replays = 0;
                for _ in 0..3 {
                    let started = Instant::now();
                    replays = decide_all(strategy, steps, shape)?;
                    best = best.min(started.elapsed());
                }
                let us_per_replay = best.as_secs_f64() * 1e6 / f64::from(replays.max(1));
                costs.push(DecisionCost {
                    strategy,
                    shape: shape.name(),
                    steps,
                    replays,
                    us_per_replay,
                    share_of_shortest_replay: us_per_replay / 1000.0 / SHORTEST_REPLAY_MS,
                });
            }
        }
    }
    Ok(costs)
}

/// Writes a session of 10 000 tap steps (one crash over the whole path) to a temporary
/// folder and times `load_session` on it (best of three).
fn parse_cost() -> Result<ParseCost, BenchError> {
    let root = tempfile::tempdir().map_err(BenchError::TempSession)?;
    let dir = root.path().join("2026-01-01_000000_bench-parse");
    std::fs::create_dir(&dir).map_err(BenchError::TempSession)?;
    let meta = json!({
        "session_id": "2026-01-01_000000_bench-parse", "name": "bench-parse",
        "created_at": "2026-01-01T00:00:00Z", "status": "failed", "platform": "android",
        "package": "com.example.shop", "device_id": "sim-1", "extra": {}
    });
    let mut steps = String::new();
    for index in 1..=PARSE_STEPS {
        let replay = if index == 1 {
            json!({"action_type": "launch"})
        } else {
            json!({"action_type": "tap", "element_key": format!("com.example.shop:id/btn_{index}")})
        };
        let step = json!({
            "index": index, "ts": "2026-01-01T00:00:00Z", "action": format!("step {index}"),
            "result": "ok", "notes": json!({"replay": replay}).to_string()
        });
        steps.push_str(&step.to_string());
        steps.push('\n');
    }
    let crash = json!({
        "crash_id": "c1", "ts": "2026-01-01T00:01:00Z", "kind": "java",
        "process": "com.example.shop",
        "stack": "java.lang.IllegalStateException: bench\n\tat com.example.shop.A.b(A.java:1)",
        "step_index": PARSE_STEPS, "repro_path": (1..=PARSE_STEPS).collect::<Vec<u32>>()
    });
    for (file, text) in [
        ("meta.json", meta.to_string()),
        ("steps.jsonl", steps),
        ("crashes.jsonl", format!("{crash}\n")),
    ] {
        std::fs::write(dir.join(file), text).map_err(BenchError::TempSession)?;
    }
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        let session = load_session(&dir)?;
        best = best.min(started.elapsed());
        debug_assert_eq!(session.steps.len(), PARSE_STEPS as usize);
    }
    let ms = best.as_secs_f64() * 1000.0;
    Ok(ParseCost {
        steps: PARSE_STEPS,
        ms,
        share_of_shortest_replay: ms / SHORTEST_REPLAY_MS,
    })
}
