//! Issue 53: a run made elsewhere — here a `whittle` with a data folder of its own, so
//! another installation's journal key, as a CI runner has — is never approved as it is
//! (nothing on this machine proves it), and is told apart from tampering: its refusal
//! says what it is and offers the typed way forward, re-proving it here. The re-proof
//! starts from its minimal path and proves it on this machine's device; that run is
//! approved. A forged path is never approved: one that does not reproduce ends not
//! reproduced, one that is not part of the crash's path is refused before anything
//! replays. The window's API says the same (`approve_blocked` with `next`).

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::{json, Value};
use whittle_service::api::{ApproveBlock, NextStep, NotProvenHere, Runs};

const SESSION: &str = CHECKOUT;
const SIDECAR: &str = "crashes.minimized.json";

/// `whittle ARGS` as another installation would run it: its own data folder (journal key).
fn elsewhere(env: &Env, args: &[&str]) -> std::process::Output {
    env.command(args)
        .env("XDG_DATA_HOME", env.dir.path().join("ci-runner-data"))
        .output()
        .expect("run whittle")
}

/// The checkout crash minimized by another installation; its evidence session.
fn run_made_elsewhere(env: &Env) -> String {
    checkout_session(env);
    let out = elsewhere(
        env,
        &["minimize", SESSION, "--max-replays", "120", "--json"],
    );
    assert_exit(&out, 0);
    let answer = json_out(&out);
    assert_eq!(answer["status"], "minimized", "{answer}");
    evidence_of(&answer)
}

fn sidecar(env: &Env) -> PathBuf {
    env.session_dir(SESSION).join(SIDECAR)
}

fn rewrite_minimal_path(evidence_dir: &Path, path: Value) {
    let file = evidence_dir.join("result.json");
    let mut result = read_json(&file);
    result["minimal_path"] = path;
    std::fs::write(&file, serde_json::to_string_pretty(&result).unwrap()).unwrap();
}

#[test]
fn a_run_made_elsewhere_is_refused_with_the_way_forward_then_re_proven_and_approved() {
    let env = Env::fast(&[]);
    let foreign = run_made_elsewhere(&env);

    // Refused, as made elsewhere, not as tampered with; nothing written.
    let out = env.whittle(&["approve", &foreign, "--json"]);
    assert_exit(&out, 3);
    let refused = json_out(&out);
    assert_eq!(refused["code"], "not_proven_here", "{refused}");
    assert_eq!(
        refused["next"],
        json!({"action": "reprove", "evidence_session": foreign})
    );
    let text = env.whittle(&["approve", &foreign]);
    assert_exit(&text, 3);
    let said = stderr(&text);
    assert!(
        said.contains("not sealed by this Whittle installation"),
        "{said}"
    );
    assert!(
        !said.contains("changed, moved"),
        "not worded as tampering: {said}"
    );
    assert!(
        said.contains(&format!("whittle minimize --reprove {foreign}")),
        "{said}"
    );
    assert!(!sidecar(&env).exists());

    // The window's API: the reopened run offers the same way forward, no approval.
    let runs = Runs::<()>::default();
    let view = runs
        .reopen_run(&env.workspace, SESSION, &foreign)
        .unwrap()
        .result
        .expect("a result");
    assert!(view.sidecar_preview.is_none());
    assert_eq!(
        view.approve_blocked,
        Some(ApproveBlock::NotProvenHere {
            why: NotProvenHere::SealedElsewhere,
            next: NextStep::Reprove {
                evidence_session: foreign.clone()
            }
        })
    );

    // Re-proven here, from its minimal path: fewer replays than the whole search.
    let foreign_result = read_json(&env.session_dir(&foreign).join("result.json"));
    let reproof = env.whittle_json(&["minimize", "--reprove", &foreign, "--json"]);
    assert_eq!(reproof["status"], "minimized", "{reproof}");
    assert_eq!(reproof["reproves"], foreign.as_str());
    assert_eq!(reproof["minimal_path"], foreign_result["minimal_path"]);
    assert!(
        reproof["attempts"].as_u64() < foreign_result["attempts"].as_u64(),
        "{reproof}"
    );
    let local = evidence_of(&reproof);
    let report = std::fs::read_to_string(env.session_dir(&local).join("report.md")).unwrap();
    assert!(
        report.contains(&format!("started from the minimal path of {foreign}")),
        "{report}"
    );

    // That run is this installation's: approved.
    let approved = env.whittle_json(&["approve", &local, "--json"]);
    assert_eq!(approved["status"], "approved", "{approved}");
    let entry = &read_json(&sidecar(&env))["crashes"]["c1"];
    assert_eq!(entry["evidence_session"], local.as_str());
    assert_eq!(
        entry["minimized_repro_path"],
        foreign_result["minimal_path"]
    );

    // A re-proof's journal says where it started: an edited `reproves` is refused.
    let file = env.session_dir(&local).join("result.json");
    let kept = std::fs::read(&file).unwrap();
    let mut edited = read_json(&file);
    edited["reproves"] = json!("some-other-run");
    std::fs::write(&file, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let out = env.whittle(&["approve", &local, "--replace"]);
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("(reproves)"), "{}", streams(&out));
    std::fs::write(&file, kept).unwrap();
}

#[test]
fn a_forged_path_is_never_approved() {
    let env = Env::fast(&[]);
    let foreign = run_made_elsewhere(&env);
    let dir = env.session_dir(&foreign);

    // A path shorter than the crash needs: re-proven here, it does not reproduce.
    rewrite_minimal_path(&dir, json!([1, 12]));
    let out = env.whittle(&["minimize", "--reprove", &foreign, "--json", "--approve"]);
    assert_exit(&out, 2);
    let answer = json_out(&out);
    assert_eq!(answer["status"], "not_reproduced", "{answer}");
    assert_eq!(answer["sidecar"], Value::Null);
    assert!(!sidecar(&env).exists());

    // A path that is not part of the crash's recorded path: refused, nothing replayed.
    let before = env.evidence_dirs().len();
    rewrite_minimal_path(&dir, json!([1, 12, 9]));
    let out = env.whittle(&["minimize", "--reprove", &foreign, "--json"]);
    assert_exit(&out, 3);
    let refused = json_out(&out);
    assert_eq!(refused["cause"]["kind"], "reproof_refused", "{refused}");
    assert_eq!(refused["cause"]["problem"], "path_not_on_crash");
    assert_eq!(env.evidence_dirs().len(), before, "no run started");

    // The forged run itself stays refused, whatever its files say.
    assert_exit(&env.whittle(&["approve", &foreign]), 3);
    assert!(!sidecar(&env).exists());
}

#[test]
fn tampering_is_not_offered_a_way_around_and_a_run_without_journal_is_re_proven() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let answer = env.minimize_json(SESSION, "120", &[]);
    let local = evidence_of(&answer);
    let journal = env.session_dir(&local).join("journal.jsonl");

    // A line after the first changed: tampering with a run sealed here; no `next`.
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let kept = lines.clone();
    let seal = lines[2].find("\"seal\":\"").expect("a sealed line") + 8;
    let flipped = if &lines[2][seal..=seal] == "0" {
        "1"
    } else {
        "0"
    };
    lines[2].replace_range(seal..=seal, flipped);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let out = env.whittle(&["approve", &local, "--json"]);
    assert_exit(&out, 3);
    let refused = json_out(&out);
    assert_eq!(refused["code"], "inconsistent", "{refused}");
    assert!(refused.get("next").is_none(), "{refused}");
    std::fs::write(&journal, kept.join("\n") + "\n").unwrap();

    // No journal at all: nothing proves it; it may be re-proven, not approved.
    std::fs::remove_file(&journal).unwrap();
    let out = env.whittle(&["approve", &local, "--json"]);
    assert_exit(&out, 3);
    let refused = json_out(&out);
    assert_eq!(refused["code"], "not_proven_here", "{refused}");
    assert_eq!(refused["next"]["action"], "reprove");
    assert!(stderr(&env.whittle(&["approve", &local])).contains("it has no journal"));
}

/// Issue 53: export checks the seal. A run made here is exported as verified; one made
/// elsewhere is exported marked not verified here (repro.md, the ticket text, the
/// manifest), naming how to re-prove it; a run whose files were changed since they were
/// sealed is not exported at all — the forged path never reaches a ticket.
#[test]
fn export_says_what_this_machine_verified_and_refuses_a_forged_run() {
    let env = Env::fast(&[]);
    let foreign = run_made_elsewhere(&env);
    let local = evidence_of(&env.minimize_json(SESSION, "120", &[]));
    let out_dir = env.dir.path().join("bundles");

    assert_exit(&env.export(&local, &out_dir, "here"), 0);
    let manifest = read_json(&out_dir.join("here/manifest.json"));
    assert_eq!(manifest["seal"], "verified");
    let repro = std::fs::read_to_string(out_dir.join("here/repro.md")).unwrap();
    assert!(!repro.contains("Not verified"), "{repro}");

    assert_exit(&env.export(&foreign, &out_dir, "elsewhere"), 0);
    let manifest = read_json(&out_dir.join("elsewhere/manifest.json"));
    assert_eq!(manifest["seal"], "sealed_elsewhere");
    let repro = std::fs::read_to_string(out_dir.join("elsewhere/repro.md")).unwrap();
    assert!(
        repro.contains("**Not verified on this machine:**"),
        "{repro}"
    );
    assert!(
        repro.contains(&format!("whittle minimize --reprove {foreign}")),
        "{repro}"
    );
    let ticket = env.whittle(&["export", &foreign, "--markdown"]);
    assert_exit(&ticket, 0);
    assert!(stdout(&ticket).contains("Not verified on this machine"));

    // This machine's run with its minimal path forged: no bundle, no ticket.
    rewrite_minimal_path(&env.session_dir(&local), json!([1, 12]));
    let out = env.export(&local, &out_dir, "forged");
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("minimal_path"), "{}", streams(&out));
    assert!(!out_dir.join("forged").exists());
    assert_exit(&env.whittle(&["export", &local, "--markdown"]), 3);
}
