//! The demo's flaky crash is as flaky as its model says: over many fresh simulators (one
//! `World` per seed, a fixed set of seeds so the test itself is repeatable), the first
//! replay of the recorded path crashes about as often as the rule's probability. This is
//! what a tester sees from the CLI, where every run starts a fresh simulator.
use std::path::Path;
use std::sync::Arc;

use whittle_contract::ui::{By, Strategy};

use super::model::AppModel;
use super::world::World;

const FLAKY_RULE: &str = "ioobe-search-flaky";

fn demo_model() -> Arc<AppModel> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/shop.json");
    Arc::new(AppModel::load(&path).expect("demo model loads"))
}

fn id(name: &str) -> Vec<Strategy> {
    vec![Strategy::new(
        By::Identifier,
        format!("com.example.shop:id/{name}"),
    )]
}

/// Steps 1–4 of `2026-05-15_101200_flaky-and-anr` on a fresh simulator with `seed`:
/// whether the flaky rule fired (it is delayed, so it shows as a scheduled crash).
fn first_replay_crashes(model: &Arc<AppModel>, seed: u64) -> bool {
    let mut world = World::new(Arc::clone(model), 1, seed, Default::default());
    world.launch(0, &model.package).expect("launch");
    assert!(world.tap(0, &id("btn_search"), false).result.tapped);
    assert!(world.input_text(0, &id("search_box"), "grinder").result.ok);
    let go = world.tap(0, &id("btn_search_go"), false);
    assert!(go.result.tapped);
    go.delayed
        .iter()
        .any(|d| model.crashes[d.rule].name == FLAKY_RULE)
}

#[test]
fn the_first_replay_of_fresh_runs_crashes_as_often_as_the_model_says() {
    let model = demo_model();
    let rule = model
        .crashes
        .iter()
        .find(|r| r.name == FLAKY_RULE)
        .expect("the demo has its flaky rule");
    let p = rule.probability;
    assert!(p > 0.0 && p < 1.0, "the rule is flaky: {p}");
    let runs = 2000;
    let hits = (0..runs)
        .filter(|&seed| first_replay_crashes(&model, seed))
        .count();
    let rate = hits as f64 / runs as f64;
    // Binomial standard deviation at n = 2000 is about 0.011; 0.035 is over 3 of them.
    assert!(
        (rate - p).abs() < 0.035,
        "first-replay rate {rate}, model {p}"
    );
}

#[test]
fn entropy_seeds_differ_between_fresh_simulators() {
    let seeds: std::collections::BTreeSet<u64> =
        (0..8).map(|_| super::flaky::entropy_seed()).collect();
    assert!(seeds.len() > 1, "{seeds:?}");
}
