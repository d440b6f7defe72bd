//! Sessions that may not be replayed live (not Android, or less than half of the path
//! replayable) get the analyzer's static suggestion, low confidence, exit 3 (refused) — and the
//! device is never touched: no evidence session, no launch, no capture.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// Any launch, capture or screenshot answers garbage: a run that touched the device
/// would fail (exit 4) instead of ending with a static suggestion.
const DEVICE_TRAPS: [&str; 6] = [
    "--fault",
    "garbage=mobile_launch_app",
    "--fault",
    "garbage=start_capture",
    "--fault",
    "garbage=clear_logs",
];

fn swipe(i: u32) -> Value {
    step(i, json!({"action_type": "swipe", "direction": "up"}))
}

fn set_platform(dir: &std::path::Path, platform: &str) {
    let path = dir.join("meta.json");
    let mut meta = read_json(&path);
    meta["platform"] = platform.into();
    std::fs::write(&path, meta.to_string()).unwrap();
}

fn assert_static(env: &Env, session: &str, reason: &str) {
    let before = env.session_names();
    let out = env.whittle(&["minimize", session, "--approve"]);
    let text = stdout(&out);
    assert_exit(&out, 3);
    assert!(
        text.contains("Static suggestion only, low confidence"),
        "{text}"
    );
    assert!(text.contains(reason), "{text}");
    assert!(text.contains("Suggested: ["), "{text}");
    assert!(text.contains("(not replayed)"), "{text}");
    let rationale = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Rationale: "))
        .unwrap_or_else(|| panic!("no rationale: {text}"));
    assert!(rationale.len() > 10, "{rationale}");
    assert!(!text.contains("✅"), "{text}");
    assert_eq!(env.session_names(), before, "no evidence session");
    assert!(!env
        .session_dir(session)
        .join("crashes.minimized.json")
        .exists());

    let out = env.whittle(&["minimize", session, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let j = json_out(&out);
    assert_eq!(j["status"], "static", "{j}");
    assert_eq!(j["confidence"], "low");
    assert_eq!(j["attempts"], 0);
    assert!(j["evidence_session"].is_null());
    assert!(j["sidecar"].is_null());
    assert_eq!(env.session_names(), before);
}

#[test]
fn an_ios_session_gets_a_static_suggestion_and_no_replay() {
    let env = Env::fast(&DEVICE_TRAPS);
    let session = checkout_session(&env);
    set_platform(&session, "ios");
    assert_static(
        &env,
        "2026-05-14_160354_checkout-npe",
        "live replay supports Android only",
    );
}

#[test]
fn a_path_mostly_without_replay_data_gets_a_static_suggestion() {
    let env = Env::fast(&DEVICE_TRAPS);
    // 4 of 9 non-launch actions replayable: below half.
    let steps = vec![
        launch(1),
        swipe(2),
        swipe(3),
        swipe(4),
        swipe(5),
        swipe(6),
        tap(7, "btn_product"),
        tap(8, "btn_add"),
        tap(9, "btn_cart"),
        tap(10, "btn_checkout"),
    ];
    env.add_session(
        "2026-05-26_100000_swipes",
        &steps,
        &npe_stack(),
        &(1..=10).collect::<Vec<_>>(),
    );
    assert_static(&env, "2026-05-26_100000_swipes", "only 4 of 9 actions");
}

/// The traps are real: the same Android session with full replay data does reach the
/// device, and the garbage launch makes that run fail.
#[test]
fn the_device_traps_do_fail_a_live_run() {
    let env = Env::fast(&DEVICE_TRAPS);
    checkout_session(&env);
    let out = env.whittle(&["minimize", CHECKOUT, "--json"]);
    assert_exit(&out, 4);
    let j = json_out(&out);
    assert_ne!(j["status"], "static", "{j}");
}
