//! A session with several distinct crashes: `whittle minimize` never guesses which one
//! is meant; it lists them and exits 3 (refused) until `--crash` names one.

use crate::common;

use common::*;
use serde_json::json;

const SESSION: &str = "2026-05-25_100000_two-crashes";

/// Checkout NPE at step 5 (c1), then a second launch and the report crash at step 10 (c2).
fn two_crash_session(env: &Env) -> std::path::PathBuf {
    let steps = vec![
        launch(1),
        tap(2, "btn_product"),
        tap(3, "btn_add"),
        tap(4, "btn_cart"),
        tap(5, "btn_checkout"),
        launch(6),
        tap(7, "btn_product"),
        tap(8, "btn_add"),
        tap(9, "btn_home"),
        tap(10, "btn_report"),
    ];
    let dir = env.add_session(SESSION, &steps, &npe_stack(), &[1, 2, 3, 4, 5]);
    let crashes = [
        json!({"crash_id": "c1", "ts": "2026-05-25T10:01:00Z", "kind": "java", "process": PKG,
               "stack": npe_stack(), "step_index": 5, "repro_path": [1, 2, 3, 4, 5]}),
        json!({"crash_id": "c2", "ts": "2026-05-25T10:02:00Z", "kind": "java", "process": PKG,
               "stack": report_stack(), "step_index": 10, "repro_path": [6, 7, 8, 9, 10]}),
    ];
    let lines: Vec<String> = crashes.iter().map(|c| c.to_string()).collect();
    std::fs::write(dir.join("crashes.jsonl"), lines.join("\n") + "\n").unwrap();
    dir
}

#[test]
fn two_crash_groups_without_crash_exit_3_and_list_both() {
    let env = Env::fast(&[]);
    two_crash_session(&env);
    let before = env.session_names();

    let out = env.whittle(&["minimize", SESSION]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("2 distinct crashes"), "{text}");
    assert!(text.contains("--crash"), "{text}");
    // Each group by its crash id and its label (exception @ first app frame).
    for group in [
        "c1: NullPointerException in CheckoutActivity.onCheckout",
        "c2: NullPointerException in ReportActivity.send",
    ] {
        assert!(text.contains(group), "{group} missing: {text}");
    }
    assert_eq!(
        env.session_names(),
        before,
        "no evidence session before a choice"
    );

    // The same refusal as JSON.
    let out = env.whittle(&["minimize", SESSION, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let j = json_out(&out);
    assert_eq!(j["status"], "refused");
    assert_eq!(j["exit"], 3);
    let error = j["error"].as_str().unwrap();
    assert!(error.contains("c1: ") && error.contains("c2: "), "{error}");

    // An id that is in neither group is refused the same way.
    let out = env.whittle(&["minimize", SESSION, "--crash", "c9"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("c9"), "{}", stderr(&out));
    assert_eq!(env.session_names(), before);
}

#[test]
fn naming_the_second_crash_runs_it() {
    let env = Env::fast(&[]);
    let session = two_crash_session(&env);
    let j = env.minimize_json(SESSION, "60", &["--crash", "c2"]);
    assert_eq!(j["status"], "minimized", "{j}");
    assert_eq!(j["crash_id"], "c2");
    assert_eq!(j["original_path"], json!([6, 7, 8, 9, 10]));
    // The report crash needs the cart filled; every step stays (see minimize_cli).
    assert_eq!(j["minimal_path"], json!([6, 7, 8, 9, 10]));
    let ev = &env.evidence_dirs()[0];
    let result = read_json(&ev.join("result.json"));
    assert_eq!(result["crash_id"], "c2");
    assert!(
        result["target_label"]
            .as_str()
            .unwrap()
            .contains("ReportActivity"),
        "{result}"
    );
    assert!(!session.join("crashes.minimized.json").exists());
}
