//! Issue 26, case 5: `--json` prints one object whatever the outcome. A run refused or
//! failed before its search — a budget below 1, a `${VAR}` the environment lacks, a
//! server that will not start — prints `{status, cause, error, exit}` with a typed cause
//! on stdout, and the exit code is the one the text mode has.

use serde_json::{json, Value};

use crate::common::*;

/// The one JSON object on stdout.
fn one_object(out: &std::process::Output) -> Value {
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one object, nothing else: {text}");
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Rewrites the env's config with `edit`.
fn edit_config(env: &Env, edit: impl FnOnce(&mut Value)) {
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&env.config).unwrap()).unwrap();
    edit(&mut config);
    std::fs::write(&env.config, config.to_string()).unwrap();
}

#[test]
fn a_run_refused_or_failed_before_its_search_still_prints_one_object() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let session = CHECKOUT;

    let out = env.whittle(&["minimize", session, "--max-replays", "0", "--json"]);
    assert_exit(&out, 2);
    let j = one_object(&out);
    assert_eq!(j["status"], "refused", "{j}");
    assert_eq!(
        j["cause"],
        json!({"kind": "bad_budget", "max_replays": 0}),
        "{j}"
    );
    assert_eq!(j["exit"], 2);

    // A header from an environment variable that is not set.
    edit_config(&env, |c| {
        c["mcpServers"]["lab"] = json!({"url": "http://127.0.0.1:9/mcp",
            "headers": {"Authorization": "Bearer ${WHITTLE_TEST_NO_SUCH_VAR}"}});
    });
    let out = env.whittle(&["minimize", session, "--json"]);
    let j = one_object(&out);
    assert_eq!(j["status"], "refused", "{j}");
    assert_eq!(j["cause"]["kind"], "config", "{j}");
    assert!(
        j["error"]
            .as_str()
            .unwrap()
            .contains("WHITTLE_TEST_NO_SUCH_VAR"),
        "{j}"
    );
    assert_eq!(out.status.code(), Some(2));

    // A server that will not start.
    edit_config(&env, |c| {
        c["mcpServers"].as_object_mut().unwrap().remove("lab");
        c["mcpServers"]["sim"]["command"] = json!("/nonexistent/whittle-servers");
    });
    let out = env.whittle(&["minimize", session, "--json"]);
    let j = one_object(&out);
    assert_eq!(j["status"], "failed", "{j}");
    assert_eq!(j["cause"]["kind"], "servers", "{j}");
    assert!(
        !j["cause"]["problems"].as_array().unwrap().is_empty(),
        "{j}"
    );
    assert_eq!(out.status.code(), Some(3));
}
