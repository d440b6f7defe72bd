//! `--json` on every command (issue 41): one object on stdout whatever the outcome —
//! answers, refusals, a bad config and clap's argument errors alike — each with an `exit`
//! equal to the process's exit code, and nothing else on stdout.

use crate::common;

use common::*;
use serde_json::Value;

/// `whittle ARGS` (which end in `--json`): its one object, whose `exit` is `code`.
fn one_object(env: &Env, args: &[&str], code: i32) -> Value {
    let out = env.whittle(args);
    assert_exit(&out, code);
    let text = stdout(&out);
    assert_eq!(
        text.lines().filter(|l| !l.trim().is_empty()).count(),
        1,
        "one object, nothing else: {text}"
    );
    let answer = json_out(&out);
    assert_eq!(answer["exit"], code, "{answer}");
    answer
}

#[test]
fn listing_and_analysis_answer_json_and_refuse_in_json() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let no_crash = "2026-05-20_090000_no-crash";
    let dir = env.add_session(no_crash, &[launch(1), tap(2, "btn_search")], "", &[2]);
    std::fs::write(dir.join("crashes.jsonl"), "").unwrap();

    let listed = one_object(&env, &["sessions", "--json"], 0);
    let sessions = listed["sessions"].as_array().unwrap();
    let checkout = sessions
        .iter()
        .find(|s| s["session_id"] == CHECKOUT)
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(checkout["crashes"][0]["crash_id"], "c1", "{checkout}");

    let analysis = one_object(&env, &["analyze", CHECKOUT, "--json"], 0);
    assert_eq!(analysis["session_id"], CHECKOUT);
    assert_eq!(analysis["crash_groups"].as_array().unwrap().len(), 1);
    assert_eq!(analysis["crashes"][0]["crash_id"], "c1", "{analysis}");
    assert!(analysis["crashes"][0]["plan"].is_object(), "{analysis}");

    let missing = one_object(&env, &["analyze", "2026-01-01_000000_gone", "--json"], 3);
    assert_eq!(missing["status"], "refused");
    assert_eq!(missing["cause"]["kind"], "session_not_found", "{missing}");
    let none = one_object(&env, &["analyze", no_crash, "--json"], 3);
    assert_eq!(none["cause"]["kind"], "no_crash", "{none}");
    let runs = one_object(&env, &["runs", "2026-01-01_000000_gone", "--json"], 3);
    assert_eq!(runs["cause"]["kind"], "session_not_found", "{runs}");
}

#[test]
fn export_markdown_and_verify_answer_json() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let evidence = evidence_of(&env.minimize_json(CHECKOUT, "120", &[]));
    let out_dir = env.dir.path().join("bundles");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.to_str().unwrap();

    let exported = one_object(&env, &["export", &evidence, "--out", out, "--json"], 0);
    let bundle = exported["bundle_dir"].as_str().unwrap().to_owned();
    assert!(std::path::Path::new(&bundle)
        .join("manifest.json")
        .is_file());
    // The same name again is refused, never overwritten: still one object.
    let again = one_object(&env, &["export", &evidence, "--out", out, "--json"], 3);
    assert_eq!(again["status"], "refused", "{again}");

    let ticket = one_object(&env, &["export", &evidence, "--markdown", "--json"], 0);
    assert_eq!(ticket["evidence_session"], evidence.as_str());
    assert!(ticket["markdown"]
        .as_str()
        .unwrap()
        .contains("NullPointerException"));
    let no_result = one_object(&env, &["export", CHECKOUT, "--markdown", "--json"], 3);
    assert_eq!(no_result["status"], "refused", "{no_result}");

    let verified = one_object(&env, &["verify", &bundle, "--runs", "2", "--json"], 0);
    assert_eq!(verified["verdict"], "proven", "{verified}");
    assert_eq!(
        (verified["reproduced"].clone(), verified["runs"].clone()),
        (2.into(), 2.into())
    );
    assert_eq!(verified["replays"].as_array().unwrap().len(), 2);
    let not_a_bundle = one_object(&env, &["verify", out, "--json"], 3);
    assert_eq!(not_a_bundle["status"], "refused", "{not_a_bundle}");
}

#[test]
fn argument_and_config_errors_are_one_object_with_json() {
    let env = Env::fast(&[]);
    for args in [
        &["sessions", "--json", "--bogus"][..],
        &["analyze", "--json"],
        &["export", "x", "--json"],
        &["verify", "--json"],
        &["runs", "--json"],
        &["approve", "--json"],
        &["doctor", "--json", "--package"],
        &["minimize", "--json"],
        &["minimize", "--list", "--json"],
        &["import", "maestro", "--json"],
    ] {
        let answer = one_object(&env, args, 3);
        assert_eq!(answer["status"], "refused", "{args:?}: {answer}");
        assert_eq!(
            answer["cause"]["kind"], "invalid_argument",
            "{args:?}: {answer}"
        );
        assert!(!answer["error"].as_str().unwrap().is_empty(), "{answer}");
    }
    // docs/cli.md shows this one verbatim.
    let out = env.whittle(&["analyze", "--json"]);
    let docs = std::fs::read_to_string(repo_root().join("docs/cli.md")).unwrap();
    assert!(
        docs.lines().any(|line| line == stdout(&out).trim_end()),
        "docs/cli.md's example differs from: {}",
        stdout(&out)
    );
    // Without --json clap's refusal stays on stderr alone.
    let out = env.whittle(&["analyze"]);
    assert_exit(&out, 3);
    assert!(stdout(&out).is_empty() && !stderr(&out).is_empty());

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_whittle"))
        .args([
            "--config",
            "/nonexistent/whittle.json",
            "sessions",
            "--json",
        ])
        .output()
        .unwrap();
    assert_exit(&out, 3);
    let answer = json_out(&out);
    assert_eq!(answer["cause"]["kind"], "config_unusable", "{answer}");
    assert_eq!(answer["exit"], 3);
}
