//! `whittle bench`: the quick suite runs without any configuration, server or device,
//! prints the tables, and writes a JSON report and an SVG plot that agree with them.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn whittle(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_whittle"))
        .args(args)
        .current_dir(cwd)
        // A config that does not exist: bench must not need one.
        .env("WHITTLE_CONFIG", cwd.join("no-such-whittle.json"))
        .output()
        .expect("run whittle")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn quick_suite_writes_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = whittle(
        dir.path(),
        &[
            "bench",
            "--quick",
            "--devices",
            "3",
            "--json",
            "b.json",
            "--svg",
            "b.svg",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains("| scenario | n | k | strategy |"),
        "{stdout}"
    );
    assert!(stdout.contains("3-dev wall s"), "{stdout}");
    assert!(
        stdout.contains("median wall-clock to a high-confidence result"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Parsing a generated 10000-step session"),
        "{stdout}"
    );

    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("b.json")).unwrap()).unwrap();
    let rows = report["rows"].as_array().unwrap();
    // 5 quick scenarios × 3 strategies × budgets 30 and 2000.
    assert_eq!(rows.len(), 30);
    for row in rows {
        let replays = row["replays"].as_u64().unwrap();
        assert!(replays <= row["max_replays"].as_u64().unwrap(), "{row}");
        assert!(row["devices_wall_s"].as_f64().unwrap() <= row["device_s"].as_f64().unwrap());
        assert_eq!(row["devices"], 3);
        // Wasted speculation is outside the budget, capped by the budget again.
        assert!(
            row["wasted"].as_u64().unwrap() <= row["max_replays"].as_u64().unwrap(),
            "{row}"
        );
        let ratio = row["wall_ratio_to_seed_1dev"].as_f64().unwrap();
        let expected =
            row["devices_wall_s"].as_f64().unwrap() / row["seed_1dev_wall_s"].as_f64().unwrap();
        assert!((ratio - expected).abs() < 1e-6, "{row}");
        // Every run is one line of the printed table.
        let line = format!("| {} | ", row["scenario"].as_str().unwrap());
        assert!(stdout.contains(&line), "{line}");
    }
    for row in rows {
        if row["flaky_observed"] == true {
            // Mixed verdicts (wasted speculative replays included) are never high.
            assert_ne!(row["confidence"], "high", "{row}");
        }
        if row["kind"] == "flaky" {
            // Whether a flaky crash shows mixed verdicts is luck of the draws, and the
            // draws of N devices differ from one device's: see `one_strategy_only`.
        } else if row["strategy"] == "binary" {
            // The binary strategy converges on every deterministic quick scenario, even
            // at the seed's default budget of 30.
            assert_eq!(row["confidence"], "high", "{row}");
            assert_eq!(row["found_minimal"], true, "{row}");
        }
    }
    let summary = report["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 6);
    let binary: u64 = summary
        .iter()
        .filter(|s| s["strategy"] == "binary" && s["max_replays"] == 2000)
        .map(|s| s["total_replays"].as_u64().unwrap())
        .sum();
    let seed: u64 = summary
        .iter()
        .filter(|s| s["strategy"] == "seed" && s["max_replays"] == 2000)
        .map(|s| s["total_replays"].as_u64().unwrap())
        .sum();
    assert!(binary < seed, "binary {binary} vs seed {seed}");
    // Three devices beat the seed on one device at every strategy that can reach high
    // confidence (`flaky` never does, so it has no high-confidence wall-clock).
    for s in summary.iter().filter(|s| s["strategy"] != "flaky") {
        let ratio = s["median_wall_ratio_high"].as_f64().unwrap();
        assert!(ratio > 0.0 && ratio < 1.0, "{s}");
    }
    assert!(!report["decision_cost"].as_array().unwrap().is_empty());
    for cost in report["decision_cost"].as_array().unwrap() {
        assert!(cost["us_per_replay"].as_f64().unwrap() > 0.0, "{cost}");
    }
    assert_eq!(report["parse_cost"]["steps"], 10000);
    assert!(report["parse_cost"]["ms"].as_f64().unwrap() > 0.0);

    let svg = std::fs::read_to_string(dir.path().join("b.svg")).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches("<circle").count(), rows.len());
}

#[test]
fn one_strategy_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = whittle(
        dir.path(),
        &[
            "bench",
            "--quick",
            "--strategy",
            "binary",
            "--json",
            "b.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("b.json")).unwrap()).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r["strategy"] == "binary"));
    // On one device the quick suite's flaky crash shows mixed verdicts and is never
    // claimed with high confidence.
    for row in rows.iter().filter(|r| r["kind"] == "flaky") {
        assert_eq!(row["flaky_observed"], true, "{row}");
        assert_ne!(row["confidence"], "high", "{row}");
        assert_eq!(row["wasted"], 0, "{row}");
    }
    assert!(!text(&out.stdout).contains("| seed |"));
}

#[test]
fn flaky_smoke_table_measures_every_strategy_and_states_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let out = whittle(
        dir.path(),
        &["bench", "--flaky", "--quick", "--json", "f.json"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains("| strategy | crash rate | n | k | results |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Goal for flaky at a 50 % crash rate"),
        "{stdout}"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("f.json")).unwrap()).unwrap();
    let rows = report["rows"].as_array().unwrap();
    // 3 strategies × (the deterministic case and 50 %), n = 16, k = 2.
    assert_eq!(rows.len(), 6);
    for row in rows {
        assert_eq!(row["wrong_deletions"], 0.0, "{row}");
        if row["strategy"] == "flaky" {
            assert_eq!(row["rated_high"], 0.0, "{row}");
        }
        // Every row is a line of the printed table.
        let line = format!(
            "| {} | {} % | 16 | 2 |",
            row["strategy"].as_str().unwrap(),
            row["percent"]
        );
        assert!(stdout.contains(&line), "{line}");
    }
    assert_eq!(report["goal"].as_array().unwrap().len(), 1);
    assert_eq!(report["bench"]["baseline_tries"], 5);
}

#[test]
fn bad_arguments_and_unwritable_outputs_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["bench", "--strategy", "ddmin"][..],
        &["bench", "--devices", "0"][..],
        &["bench", "--max-replays", "0"][..],
        &["bench", "--flaky", "--baseline-tries", "0"][..],
        &["bench", "--flaky", "--seeds", "0"][..],
    ] {
        let out = whittle(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(3),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = whittle(dir.path(), &["bench", "--strategy", "ddmin"]);
    assert!(text(&out.stderr).contains("expected one of: seed, binary"));

    let out = whittle(
        dir.path(),
        &["bench", "--quick", "--json", "missing-folder/b.json"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("cannot write missing-folder/b.json"));
}
