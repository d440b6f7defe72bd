//! A crash in one of the app's own `:suffix` processes (a sync adapter, a push handler, a
//! WebView renderer runs in one) is the app's crash: it is minimized like any other, the
//! session's package naming the app to launch.

use crate::common;

use common::*;
use serde_json::json;

const SESSION: &str = "2026-06-02_100000_checkout-process";

#[test]
fn a_crash_in_a_colon_process_of_the_app_is_minimized() {
    let process = format!("{PKG}:checkout");
    let mut model = model();
    // The checkout crash happens in the app's `:checkout` process.
    let crashes = model["crashes"].as_array_mut().unwrap();
    crashes[0]["process"] = json!(process);
    let env = Env::with_model(model);
    let steps = vec![
        launch(1),
        tap(2, "btn_product"),
        tap(3, "btn_add"),
        tap(4, "btn_cart"),
        tap(5, "btn_checkout"),
    ];
    let dir = env.add_session(SESSION, &steps, &npe_stack(), &[1, 2, 3, 4, 5]);
    let crash = json!({"crash_id": "c1", "ts": "2026-06-02T10:01:00Z", "kind": "java",
        "process": process, "stack": npe_stack(), "step_index": 5, "repro_path": [1, 2, 3, 4, 5]});
    std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();

    let out = env.whittle(&["minimize", SESSION, "--json"]);
    let summary = json_out(&out);
    assert_eq!(out.status.code(), Some(0), "{summary}\n{}", stderr(&out));
    assert_eq!(summary["status"], "minimized", "{summary}");
    let minimal: Vec<u64> = summary["minimal_path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(minimal, [1, 2, 3, 4, 5], "{summary}");
}
