//! `whittle minimize --devices N`: replays run on a pool of simulator devices, the
//! result and its proof are the one-device result, every replay is in the evidence with
//! its device, and the budget covers the speculative replays too.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

const SESSION: &str = CHECKOUT;

/// The fast environment with a simulator of `devices` devices.
fn env_with_sim_devices(devices: u32) -> Env {
    with_sim_devices(Env::fast(&[]), devices)
}

fn with_sim_devices(env: Env, devices: u32) -> Env {
    env.edit_config(|config| {
        let args = config["mcpServers"]["sim"]["args"].as_array_mut().unwrap();
        let at = args.iter().position(|a| a == "--devices").unwrap();
        args[at + 1] = json!(devices.to_string());
    });
    env
}

fn run_json(env: &Env, extra: &[&str]) -> Value {
    env.minimize_json(SESSION, "120", extra)
}

#[test]
fn three_devices_prove_the_same_minimal_path_with_every_replay_in_the_evidence() {
    let one = {
        let env = env_with_sim_devices(3);
        checkout_session(&env);
        run_json(&env, &[])
    };
    // A one-device run prints exactly the fields it always did.
    assert!(one.get("devices").is_none(), "{one}");

    let env = env_with_sim_devices(3);
    checkout_session(&env);
    let three = run_json(&env, &["--devices", "3"]);
    assert_eq!(three["status"], "minimized");
    assert_eq!(three["confidence"], "high");
    assert_eq!(three["minimal_path"], one["minimal_path"]);
    assert_eq!(three["minimal_path"], json!([1, 9, 10, 11, 12]));
    assert_eq!(three["final_confirmed"], true);
    assert_eq!(three["fixed_point_reached"], true);
    assert_eq!(three["devices"], json!(["sim-1", "sim-2", "sim-3"]));

    let attempts = three["attempts"].as_u64().unwrap();
    let wasted = three["wasted_replays"].as_u64().unwrap();
    assert!(attempts <= 120);
    // The budget counts the replays the search used: the 1-device attempts. Wasted
    // speculation ran besides (on devices that would have idled), counted apart.
    assert_eq!(attempts, one["attempts"].as_u64().unwrap());
    let per_device: u64 = three["replays_on_devices"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(per_device, attempts + wasted);

    let evidence = env.evidence_dirs();
    assert_eq!(evidence.len(), 1);
    let ev = &evidence[0];
    let steps = session_steps(ev);
    assert_eq!(
        steps.len() as u64,
        attempts + wasted,
        "one evidence step per replay"
    );
    let notes: Vec<Value> = steps
        .iter()
        .map(|s| serde_json::from_str(s["notes"].as_str().unwrap()).unwrap())
        .collect();
    let attempt_numbers: Vec<u64> = notes
        .iter()
        .map(|n| n["attempt"].as_u64().unwrap())
        .collect();
    assert!(
        attempt_numbers.windows(2).all(|w| w[0] < w[1]),
        "steps in attempt order: {attempt_numbers:?}"
    );
    let devices: BTreeSet<&str> = notes
        .iter()
        .map(|n| n["device"].as_str().unwrap())
        .collect();
    assert!(devices.len() > 1, "replays on one device only: {devices:?}");
    assert!(notes.iter().any(|n| n["speculative"] == true));
    assert_eq!(notes[0]["speculative"], false);
    // A guess stopped halfway once its branch was cut: a speculative step with no
    // picture, saying why, and never one the search used.
    let stopped: BTreeSet<u64> = notes
        .iter()
        .filter(|n| n["outcome"]["kind"] == "unneeded")
        .map(|n| {
            assert_eq!(n["speculative"], true, "{n}");
            assert!(n["screenshot_src"].is_null(), "{n}");
            assert_eq!(n["screenshot_omitted"]["kind"], "unneeded", "{n}");
            n["attempt"].as_u64().unwrap()
        })
        .collect();
    eprintln!("guesses stopped as unneeded: {stopped:?}");

    // Every extra device had its own capture, in its own folder, stopped at the end.
    for device in ["sim-2", "sim-3"] {
        assert!(ev.join("devices").join(device).is_dir(), "{device}");
    }
    let pool: Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("pool.json")).unwrap()).unwrap();
    assert_eq!(pool["wasted"].as_u64().unwrap(), wasted);
    for replay in pool["replays"].as_array().unwrap() {
        if stopped.contains(&replay["attempt"].as_u64().unwrap()) {
            assert_eq!(replay["consumed"], false, "{replay}");
        }
    }
    // Their device time, reported apart: the sum over the replays not needed.
    let unneeded_ms: u64 = pool["replays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["consumed"] == false)
        .map(|r| r["duration_ms"].as_u64().unwrap())
        .sum();
    assert_eq!(pool["wasted_device_ms"].as_u64().unwrap(), unneeded_ms);
    assert!(wasted == 0 || unneeded_ms > 0, "{pool}");
    let reported = three["wasted_device_s"].as_f64().unwrap();
    assert!(
        (reported - unneeded_ms as f64 / 1000.0).abs() < 1e-9,
        "{three}"
    );
    assert_eq!(
        pool["replays"].as_array().unwrap().len() as u64,
        attempts + wasted
    );
    let extra: Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("meta.json")).unwrap()).unwrap();
    assert_eq!(
        extra["extra"]["devices"],
        json!(["sim-1", "sim-2", "sim-3"])
    );
    assert_eq!(meta_status(ev), "passed");
}

#[test]
fn fewer_devices_than_asked_is_a_warning_and_zero_is_refused() {
    let env = env_with_sim_devices(2);
    checkout_session(&env);
    for bad in ["0", "-1"] {
        let out = env.whittle(&["minimize", SESSION, "--devices", bad]);
        assert_eq!(out.status.code(), Some(3), "{bad}: {}", stderr(&out));
    }
    assert!(
        env.evidence_dirs().is_empty(),
        "refused before any side effect"
    );

    let j = run_json(&env, &["--devices", "5"]);
    assert_eq!(j["devices"], json!(["sim-1", "sim-2"]));
    assert_eq!(j["minimal_path"], json!([1, 9, 10, 11, 12]));
    let smaller: Vec<_> = j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["source"] == "pool" && w["notice"]["kind"] == "pool_smaller")
        .collect();
    assert_eq!(smaller.len(), 1, "{:#}", j["warnings"]);
    assert_eq!(smaller[0]["notice"]["asked"], 5);
    assert_eq!(smaller[0]["notice"]["devices"], json!(["sim-1", "sim-2"]));
}

/// Ctrl-C while a round runs on three devices: every replay in flight stops, every
/// device's capture is stopped and saved, the run is finalized failed, exit 5 (cancelled).
#[test]
fn sigint_mid_round_stops_every_device() {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 400, "action_ms": 0});
    let env = with_sim_devices(Env::with_model(m), 3);
    checkout_session(&env);
    let mut child =
        env.spawn_whittle(&["minimize", SESSION, "--devices", "3", "--approve", "--json"]);
    // The first round is the baseline alone (nothing to speculate on before it); wait
    // for it, then for the second round to be under way.
    let ev = env.wait_for_first_attempt(&mut child);
    std::thread::sleep(Duration::from_millis(150));
    send_sigint(&child.id().to_string());
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_exit(&out, 5);
    assert!(took < Duration::from_secs(5), "exit took {took:?}");
    let j = json_out(&out);
    assert_eq!(j["status"], "cancelled", "{j}");
    assert!(j["sidecar"].is_null());
    assert_eq!(meta_status(&ev), "failed");
    assert!(ev.join("logcat.txt").is_file());
    for device in ["sim-2", "sim-3"] {
        assert!(
            ev.join("devices").join(device).join("logcat.txt").is_file(),
            "{device}: capture stopped and saved"
        );
    }
    assert!(!env
        .session_dir(SESSION)
        .join("crashes.minimized.json")
        .exists());
}
