//! `whittle minimize --json` prints one object whatever the outcome (issue 26, case 5):
//! a run refused or failed before its search still answers on stdout with its status
//! (`refused` or `failed`) and its typed cause, and its exit code (docs/cli.md).

use crate::common;
use crate::lab_support;

use common::*;
use lab_support::*;
use serde_json::{json, Value};

const SESSION: &str = CHECKOUT;

/// `whittle ARGS --json` (with `envs`) that exits `code`: its one JSON object.
fn refused(env: &Env, args: &[&str], envs: &[(String, String)], code: i32) -> Value {
    let out = whittle(env, &[args, &["--json"]].concat(), envs);
    assert_exit(&out, code);
    let text = stdout(&out);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(lines, 1, "one object, nothing else: {text}");
    let answer = json_out(&out);
    assert_eq!(answer["exit"], code, "{answer}");
    assert!(env.evidence_dirs().is_empty(), "nothing was started");
    answer
}

#[test]
fn a_missing_variable_in_the_config_is_a_refused_config() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    env.edit_config(|config| {
        config["mcpServers"]["lab"] = json!({
            "url": "http://127.0.0.1:9/mcp",
            "headers": { "Authorization": "Bearer ${WHITTLE_TEST_UNSET_TOKEN}" },
        });
        config["roles"]["log"] = json!("lab");
    });
    let answer = refused(&env, &["minimize", SESSION], &[], 3);
    assert_eq!(answer["status"], "refused", "{answer}");
    let cause = &answer["cause"];
    assert_eq!(cause["kind"], "config_unusable", "{answer}");
    assert_eq!(cause["file"], env.config.display().to_string());
    assert!(
        cause["field"]
            .as_str()
            .unwrap()
            .contains("mcpServers.lab.headers"),
        "{answer}"
    );
    assert!(
        cause["detail"]
            .as_str()
            .unwrap()
            .contains("WHITTLE_TEST_UNSET_TOKEN"),
        "{answer}"
    );
}

#[test]
fn a_wrong_token_is_a_refusal_naming_the_server() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let lab = Host::sim("labA", &model, 1, &[]);
    use_lab(&env, &[&lab]);
    let wrong = vec![(lab.env_var(), "labA-token-wrong-000000000".to_string())];
    let answer = refused(&env, &["minimize", SESSION], &wrong, 3);
    assert_eq!(answer["status"], "refused", "{answer}");
    assert_eq!(answer["cause"]["kind"], "servers_unavailable", "{answer}");
    let problems = answer["cause"]["problems"].as_array().unwrap();
    assert!(!problems.is_empty(), "{answer}");
    for problem in problems {
        assert_eq!(problem["server"], "labA", "{answer}");
        assert_eq!(problem["problem"]["kind"], "unauthorized", "{answer}");
    }
    assert!(!answer.to_string().contains("labA-token-wrong"), "{answer}");
}

#[test]
fn a_budget_of_zero_is_a_refused_count() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    for (flag, field, given) in [
        ("--max-replays", "max_replays", "0"),
        ("--max-replays", "max_replays", "4294967296"),
        ("--devices", "devices", "-1"),
        ("--baseline-tries", "baseline_tries", "many"),
    ] {
        let answer = refused(&env, &["minimize", SESSION, flag, given], &[], 3);
        assert_eq!(answer["status"], "refused", "{answer}");
        assert_eq!(
            answer["cause"],
            json!({ "kind": "invalid_count", "field": field, "given": given }),
            "{answer}"
        );
    }
}

#[test]
fn a_server_that_will_not_start_is_a_failure() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let missing = env.dir.path().join("no-such-server");
    env.edit_config(|config| {
        config["mcpServers"]["sim"]["command"] = json!(missing);
    });
    let answer = refused(&env, &["minimize", SESSION], &[], 4);
    assert_eq!(answer["status"], "failed", "{answer}");
    assert_eq!(answer["cause"]["kind"], "servers_unavailable", "{answer}");
    let problems = answer["cause"]["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p["server"] == "sim" && p["problem"]["kind"] == "start_failed"),
        "{answer}"
    );
}
