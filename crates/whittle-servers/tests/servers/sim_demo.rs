//! The demo workspace against the simulator: the model parses, recorded crash stacks
//! are what the simulator produces, and the main demo session's crash depends on
//! exactly three of its steps.
use crate::sim_support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sim_support::Sim;

const MAIN_SESSION: &str = "2026-05-14_160354_checkout-npe";

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo")
}

fn session(id: &str) -> PathBuf {
    demo().join("workspace/sessions").join(id)
}

/// The demo model without its demo pacing, so tests run fast.
fn fast_demo_model() -> Value {
    let mut model: Value =
        serde_json::from_str(&std::fs::read_to_string(demo().join("shop.json")).unwrap()).unwrap();
    model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    model
}

/// A replayable step of a new-format session (what the engine's Phase 1 keeps).
#[derive(Debug, Clone)]
struct Action {
    index: u64,
    replay: Value,
}

fn replayable_steps(id: &str) -> Vec<Action> {
    let text = std::fs::read_to_string(session(id).join("steps.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|step| {
            let notes: Value = serde_json::from_str(step["notes"].as_str()?).ok()?;
            let replay = notes["replay"].clone();
            let key = replay["element_key"].as_str().unwrap_or("");
            let skip = replay["action_type"] == "launch"
                || replay["input_redacted"] == true
                || key.starts_with("class:")
                || key.starts_with("bounds:");
            (!skip).then(|| Action {
                index: step["index"].as_u64().unwrap(),
                replay,
            })
        })
        .collect()
}

/// Clean start, the actions (stopping at the first element not found), then the crashes.
async fn replay(sim: &Sim, actions: &[&Action]) -> Vec<Value> {
    let pkg = "com.example.shop";
    sim.call(
        "mobile_terminate_app",
        json!({"device": "sim-1", "packageName": pkg}),
    )
    .await;
    sim.clear("sim-1").await;
    sim.call(
        "mobile_launch_app",
        json!({"device": "sim-1", "packageName": pkg}),
    )
    .await;
    for a in actions {
        let r = &a.replay;
        let strategies = json!([{"by": "identifier", "value": r["element_key"]}]);
        let done = match r["action_type"].as_str().unwrap() {
            "tap" => {
                sim.call(
                    "tap_element",
                    json!({"device": "sim-1", "strategies": strategies}),
                )
                .await["tapped"]
                    == true
            }
            "input_text" => {
                sim.call(
                    "input_text",
                    json!({"device": "sim-1", "strategies": strategies, "text": r["input_value"]}),
                )
                .await["ok"]
                    == true
            }
            "press_button" => {
                sim.call(
                    "mobile_press_button",
                    json!({"device": "sim-1", "button": r["button"]}),
                )
                .await["ok"]
                    == true
            }
            other => panic!("unexpected action {other}"),
        };
        if !done {
            break;
        }
    }
    sim.crashes("sim-1").await
}

fn is_npe_checkout(crashes: &[Value]) -> bool {
    crashes.iter().any(|c| {
        c["stack"]
            .as_str()
            .unwrap()
            .contains("ShippingQuote.forCart")
    })
}

/// Digits, hex addresses and timestamps are what occurrences of one crash differ in.
fn skeleton(stack: &str) -> String {
    let hex = regex::Regex::new(r"0x[0-9a-f]+").unwrap();
    hex.replace_all(stack, "0x")
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect()
}

#[test]
fn demo_model_parses_and_recorded_stacks_come_from_its_rules() {
    let model = whittle_servers::sim::AppModel::load(&demo().join("shop.json")).unwrap();
    assert_eq!(model.package, "com.example.shop");
    assert!(model
        .crashes
        .iter()
        .any(|r| r.name == "npe-checkout" && r.probability == 1.0));
    assert!(model
        .crashes
        .iter()
        .any(|r| r.probability > 0.0 && r.probability < 1.0));
    assert!(model
        .crashes
        .iter()
        .any(|r| r.kind == whittle_core::model::CrashKind::Anr));
    let rule_skeletons: Vec<String> = model.crashes.iter().map(|r| skeleton(&r.stack)).collect();
    let mut checked = 0;
    for entry in std::fs::read_dir(demo().join("workspace/sessions")).unwrap() {
        // A session without crashes.jsonl has no crashes (docs/design.md §1): e.g. the evidence
        // session a demo `whittle minimize` run leaves in the workspace.
        let Ok(crashes) = std::fs::read_to_string(entry.unwrap().path().join("crashes.jsonl"))
        else {
            continue;
        };
        for line in crashes.lines() {
            let crash: Value = serde_json::from_str(line).unwrap();
            let s = skeleton(crash["stack"].as_str().unwrap());
            assert!(
                rule_skeletons.contains(&s),
                "stack of {line} matches no rule"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 5);
}

#[tokio::test]
async fn main_demo_crash_needs_exactly_its_three_essential_steps() {
    let sim = Sim::start(&fast_demo_model(), &[]).await;
    let steps = replayable_steps(MAIN_SESSION);
    let indexes: Vec<u64> = steps.iter().map(|a| a.index).collect();
    assert_eq!(
        indexes,
        [2, 3, 4, 5, 6, 9, 10, 11, 12],
        "launch, redacted and class: steps are not replayable"
    );

    let all: Vec<&Action> = steps.iter().collect();
    let crashes = replay(&sim, &all).await;
    assert!(
        is_npe_checkout(&crashes),
        "full path reproduces: {crashes:?}"
    );
    let recorded: Value = serde_json::from_str(
        std::fs::read_to_string(session(MAIN_SESSION).join("crashes.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        skeleton(crashes[0]["stack"].as_str().unwrap()),
        skeleton(recorded["stack"].as_str().unwrap())
    );

    let essential = [10, 11, 12];
    let only: Vec<&Action> = steps
        .iter()
        .filter(|a| essential.contains(&a.index))
        .collect();
    assert!(
        is_npe_checkout(&replay(&sim, &only).await),
        "the three essential steps alone reproduce"
    );

    for dropped in essential {
        let without: Vec<&Action> = steps.iter().filter(|a| a.index != dropped).collect();
        assert!(
            !is_npe_checkout(&replay(&sim, &without).await),
            "full path without step {dropped} must not reproduce"
        );
        let pair: Vec<&Action> = only
            .iter()
            .copied()
            .filter(|a| a.index != dropped)
            .collect();
        assert!(
            !is_npe_checkout(&replay(&sim, &pair).await),
            "essential steps without {dropped} must not reproduce"
        );
    }
}

#[tokio::test]
async fn demo_anr_and_flaky_crash_reproduce_from_their_sessions() {
    let sim = Sim::start(&fast_demo_model(), &["--seed", "7"]).await;
    let steps = replayable_steps("2026-05-15_101200_flaky-and-anr");
    let anr_path: Vec<&Action> = steps.iter().filter(|a| a.index >= 6).collect();
    let crashes = replay(&sim, &anr_path).await;
    assert_eq!(crashes.len(), 1);
    assert_eq!(crashes[0]["kind"], "anr");
    assert!(crashes[0]["stack"]
        .as_str()
        .unwrap()
        .contains("Input dispatching timed out"));

    let flaky_path: Vec<&Action> = steps.iter().filter(|a| a.index <= 4).collect();
    let mut hits = 0;
    for _ in 0..20 {
        replay(&sim, &flaky_path).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        if sim
            .crashes("sim-1")
            .await
            .iter()
            .any(|c| c["stack"].as_str().unwrap().contains("SearchResultsMerger"))
        {
            hits += 1;
        }
    }
    assert!((3..=19).contains(&hits), "flaky: {hits}/20");
}
