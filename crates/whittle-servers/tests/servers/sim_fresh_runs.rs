//! Failure 5 of issue 15: every fresh simulator must be a fresh run of a flaky app. Without
//! `--seed` the draws come from entropy, so the first replay of the demo's flaky crash
//! does not come out the same in every run; the seed in use is written into the capture,
//! and `--seed` with it repeats the run.
use crate::sim_support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sim_support::{test_model, Sim};

const DEMO_PKG: &str = "com.example.shop";

/// The demo model without its demo pacing.
fn fast_demo_model() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/shop.json");
    let mut model: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    model
}

fn id(name: &str) -> Value {
    json!([{"by": "identifier", "value": format!("{DEMO_PKG}:id/{name}")}])
}

/// Steps 1–4 of `2026-05-15_101200_flaky-and-anr` once on a fresh simulator (no seed):
/// whether the flaky crash (delivered 200 ms after the tap) shows.
async fn first_replay_of_a_fresh_run() -> bool {
    let sim = Sim::start(&fast_demo_model(), &[]).await;
    let dev = "sim-1";
    sim.call(
        "mobile_launch_app",
        json!({"device": dev, "packageName": DEMO_PKG}),
    )
    .await;
    let tap = |name| json!({"device": dev, "strategies": id(name), "settle_ms": 0});
    assert_eq!(
        sim.call("tap_element", tap("btn_search")).await["tapped"],
        true
    );
    let typed = json!({"device": dev, "strategies": id("search_box"), "text": "grinder"});
    assert_eq!(sim.call("input_text", typed).await["ok"], true);
    assert_eq!(
        sim.call("tap_element", tap("btn_search_go")).await["tapped"],
        true
    );
    let deadline = Instant::now() + Duration::from_millis(700);
    while Instant::now() < deadline {
        if !sim.crashes(dev).await.is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn fresh_runs_without_a_seed_do_not_all_draw_the_same_first_outcome() {
    // At p = 0.6, 24 fresh runs all agree with probability 0.6^24 + 0.4^24 < 5e-6.
    let mut runs = tokio::task::JoinSet::new();
    for _ in 0..24 {
        runs.spawn(first_replay_of_a_fresh_run());
    }
    let mut outcomes = Vec::new();
    while let Some(outcome) = runs.join_next().await {
        outcomes.push(outcome.unwrap());
    }
    let crashed = outcomes.iter().filter(|c| **c).count();
    assert!(
        crashed > 0 && crashed < outcomes.len(),
        "{crashed}/{} first replays crashed: every fresh run drew the same outcome",
        outcomes.len()
    );
}

/// The seed a capture's log names, from the simulator's own line.
async fn seed_in_capture(sim: &Sim) -> u64 {
    let session = sim.path("session");
    std::fs::create_dir_all(&session).unwrap();
    let started = sim.start_capture("s", &session, "sim-1").await;
    assert_eq!(started["status"], "running");
    sim.call("stop_capture", json!({"session_id": "s"})).await;
    let log = std::fs::read_to_string(session.join("logcat.txt")).unwrap();
    let line = log
        .lines()
        .next()
        .expect("the capture names its seed first");
    assert!(line.contains(" I WhittleSim: flaky-crash seed "), "{line}");
    let seed = line
        .split("flaky-crash seed ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap();
    assert!(line.contains(&format!("--seed {seed}`")), "{line}");
    seed.parse().unwrap()
}

#[tokio::test]
async fn the_capture_names_the_seed_and_that_seed_repeats_the_run() {
    let fixed = Sim::start(&test_model(), &["--seed", "9"]).await;
    assert_eq!(seed_in_capture(&fixed).await, 9);

    let drawn = Sim::start(&test_model(), &[]).await;
    let seed = seed_in_capture(&drawn).await;
    let first = drawn.flaky_outcomes(40).await;
    let again = Sim::start(&test_model(), &["--seed", &seed.to_string()]).await;
    assert_eq!(again.flaky_outcomes(40).await, first, "seed {seed}");
}
