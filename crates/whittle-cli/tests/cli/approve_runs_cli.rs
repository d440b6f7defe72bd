//! `whittle runs <session>` lists a session's past runs as the app shows them, and
//! `whittle approve <evidence>` writes a finished run's result back after checking its
//! evidence as the app does (issue 26, case 6): for a run never approved, also one
//! stopped after its search finished but before it was written back.

use crate::common;

use common::*;
use serde_json::{json, Value};

const SESSION: &str = CHECKOUT;

/// A minimized checkout run that was not written back, and its evidence session.
fn unapproved_run(env: &Env) -> (std::path::PathBuf, String) {
    let session = checkout_session(env);
    let answer = env.minimize_json(SESSION, "120", &[]);
    assert_eq!(answer["status"], "minimized", "{answer}");
    assert_eq!(answer["sidecar"], Value::Null);
    (session, evidence_of(&answer))
}

/// The one run `whittle runs --json` lists for crash c1.
fn listed_run(env: &Env) -> Value {
    let listed = env.whittle_json(&["runs", SESSION, "--json"]);
    assert_eq!(listed["session"], SESSION);
    let crashes = listed["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{listed}");
    assert_eq!(crashes[0]["crash_id"], "c1");
    let runs = crashes[0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{listed}");
    runs[0].clone()
}

#[test]
fn a_run_never_approved_is_listed_then_approved_from_its_evidence() {
    let env = Env::fast(&[]);
    let (session, evidence) = unapproved_run(&env);
    let sidecar = session.join("crashes.minimized.json");

    let run = listed_run(&env);
    assert_eq!(run["evidence_session"], evidence.as_str());
    assert_eq!(run["outcome"], "minimized");
    assert_eq!(
        (run["original_steps"].clone(), run["minimal_steps"].clone()),
        (json!(12), json!(5))
    );
    assert_eq!(run["confidence"], "high");
    assert_eq!(run["approved"], false);
    let text = stdout(&env.whittle(&["runs", SESSION]));
    assert!(
        text.contains(&evidence) && text.contains("12 → 5"),
        "{text}"
    );
    assert!(!text.contains("approved"), "{text}");

    // Naming another crash approves nothing.
    let other = env.whittle(&["approve", &evidence, "--crash", "c9"]);
    assert_exit(&other, 3);
    assert!(stderr(&other).contains("c9"), "{}", streams(&other));
    assert!(!sidecar.exists());

    let approved = env.whittle_json(&["approve", &evidence, "--crash", "c1", "--json"]);
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["crash_id"], "c1");
    assert_eq!(approved["sidecar"], sidecar.display().to_string());
    let written = read_json(&sidecar);
    assert_eq!(written["crashes"]["c1"], approved["entry"], "{approved}");
    assert_eq!(
        written["crashes"]["c1"]["minimized_repro_path"],
        json!([1, 9, 10, 11, 12])
    );
    assert_eq!(
        written["crashes"]["c1"]["evidence_session"],
        evidence.as_str()
    );
    assert_eq!(listed_run(&env)["approved"], true);
    assert!(stdout(&env.whittle(&["runs", SESSION])).contains("approved"));
}

#[test]
fn a_run_that_cannot_be_resumed_or_stopped_before_its_write_back_can_be_approved() {
    let env = Env::fast(&[]);
    let (session, evidence) = unapproved_run(&env);
    // A finished run does not go on: before `approve`, the terminal had no way to
    // write it back but replaying everything again.
    let resumed = env.whittle(&["minimize", "--resume", &evidence]);
    assert_exit(&resumed, 3);
    assert!(
        stderr(&resumed).contains("already ended"),
        "{}",
        streams(&resumed)
    );
    let dir = env.session_dir(&evidence);
    // Killed after the result was written, before the evidence was finalized: the
    // evidence still says running, and nobody holds its lock.
    let meta_path = dir.join("meta.json");
    let mut meta = read_json(&meta_path);
    meta["status"] = "running".into();
    std::fs::write(&meta_path, meta.to_string()).unwrap();

    let approved = env.whittle(&["approve", &evidence]);
    assert_exit(&approved, 0);
    assert!(
        stdout(&approved).contains("\"minimized_repro_path\""),
        "{}",
        streams(&approved)
    );
    assert!(session.join("crashes.minimized.json").is_file());
}

#[test]
fn evidence_that_does_not_hold_together_is_not_approved() {
    let env = Env::fast(&[]);
    let (session, evidence) = unapproved_run(&env);
    let result_path = env.session_dir(&evidence).join("result.json");
    let mut result = read_json(&result_path);
    result["minimal_path"] = json!([1, 12]);
    std::fs::write(&result_path, result.to_string()).unwrap();

    let out = env.whittle(&["approve", &evidence, "--json"]);
    assert_exit(&out, 3);
    let answer = json_out(&out);
    assert_eq!(answer["status"], "refused");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("does not hold together"),
        "{answer}"
    );
    assert!(!session.join("crashes.minimized.json").exists());

    let unknown = env.whittle(&["approve", "2026-01-01_000000_no-such-run"]);
    assert_exit(&unknown, 3);
}

/// What Whittle left hidden in the tester's session folder: temporaries of interrupted
/// writes, lock files.
fn hidden_leftovers(session: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(session)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect()
}

/// Issue 30: `kill -9` of an approval at any moment, twenty times, and then one that
/// finishes: the tester's session folder holds the sidecar and nothing hidden (no
/// temporary file, no lock file).
#[test]
fn approvals_killed_at_any_moment_leave_no_stray_file() {
    let env = Env::fast(&[]);
    let (session, evidence) = unapproved_run(&env);
    let started = std::time::Instant::now();
    assert_exit(&env.whittle(&["approve", &evidence]), 0);
    let whole = started.elapsed();

    let mut killed_before_the_end = 0;
    for i in 0..20u32 {
        let mut child = env.spawn_whittle(&["approve", &evidence]);
        // Spread over an approval's time; under load it takes longer, so most kills
        // land before its end.
        std::thread::sleep(whole * i / 24);
        if child.try_wait().unwrap().is_none() {
            killed_before_the_end += 1;
        }
        child.kill().ok();
        child.wait().unwrap();
    }
    assert!(killed_before_the_end >= 5, "{killed_before_the_end} of 20");
    // A write killed between its temporary file and the rename leaves the temporary;
    // what counts is that nothing stays once the next approval has run.
    let approved = env.whittle(&["approve", &evidence]);
    assert_exit(&approved, 0);
    assert_eq!(hidden_leftovers(&session), Vec::<String>::new());
    let sidecar = read_json(&session.join("crashes.minimized.json"));
    assert_eq!(
        sidecar["crashes"]["c1"]["minimized_repro_path"],
        json!([1, 9, 10, 11, 12])
    );

    // One left as a killed writer leaves it (its process is gone) is removed too.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let gone_pid = gone.id();
    gone.wait().unwrap();
    let leftover = session.join(format!(".crashes.minimized.json.{gone_pid}.Xy12Zw.tmp"));
    std::fs::write(&leftover, "{\"half\":").unwrap();
    assert_exit(&env.whittle(&["approve", &evidence]), 0);
    assert!(!leftover.exists());
    assert_eq!(hidden_leftovers(&session), Vec::<String>::new());
}

/// Issue 40: a finished run whose files were changed is refused, naming the file and the
/// line, and nothing is written — `result.json`'s minimal path alone, the confirmation
/// steps of `steps.jsonl` alone, both together (the forgery the issue reported), or one
/// line of the sealed journal. Put back as the run left them, the same run is approved.
#[test]
fn a_tampered_finished_run_is_refused_naming_the_file_and_line() {
    let env = Env::fast(&[]);
    let (session, evidence) = unapproved_run(&env);
    let sidecar = session.join("crashes.minimized.json");
    let dir = env.session_dir(&evidence);
    let files = ["result.json", "steps.jsonl", "journal.jsonl"];
    let kept: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let restore = || {
        for (file, bytes) in files.iter().zip(&kept) {
            std::fs::write(dir.join(file), bytes).unwrap();
        }
    };
    let refusal = |what: &str| {
        let out = env.whittle(&["approve", &evidence, "--json"]);
        assert_exit(&out, 3);
        let answer = json_out(&out);
        assert_eq!(answer["status"], "refused", "{what}: {answer}");
        assert!(!sidecar.exists(), "{what}: nothing may be written");
        answer["error"].as_str().unwrap().to_owned()
    };

    // result.json: the minimal path shortened to one the run never confirmed.
    let forged_result = || {
        let mut result = read_json(&dir.join("result.json"));
        result["minimal_path"] = json!([1, 11, 12]);
        let text = serde_json::to_string_pretty(&result).unwrap();
        std::fs::write(dir.join("result.json"), &text).unwrap();
        text.lines()
            .position(|l| l.starts_with("  \"minimal_path\""))
            .unwrap()
            + 1
    };
    let line = forged_result();
    let error = refusal("result.json");
    assert!(
        error.contains(&format!("result.json line {line} (minimal_path)"))
            && error.contains("[1,11,12] there, [1,9,10,11,12] by the journal"),
        "{error}"
    );
    restore();

    // steps.jsonl: the three confirmation replays made to confirm that path.
    let forged_steps = || {
        let text = std::fs::read_to_string(dir.join("steps.jsonl")).unwrap();
        let mut first = None;
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(at, line)| {
                let mut step: Value = serde_json::from_str(line).unwrap();
                let mut notes: Value =
                    serde_json::from_str(step["notes"].as_str().unwrap()).unwrap();
                if notes["phase"] != "confirm" {
                    return line.to_owned();
                }
                first.get_or_insert(at + 1);
                notes["candidate"] = json!([11, 12]);
                step["notes"] = notes.to_string().into();
                step.to_string()
            })
            .collect();
        std::fs::write(dir.join("steps.jsonl"), lines.join("\n") + "\n").unwrap();
        first.expect("confirmation steps")
    };
    let line = forged_steps();
    let error = refusal("steps.jsonl");
    assert!(
        error.contains(&format!("steps.jsonl line {line} (attempt "))
            && error.contains("differs from the run's journal"),
        "{error}"
    );
    restore();

    // Both, as in the issue: still the first changed step is named.
    let _ = forged_result();
    let line = forged_steps();
    let error = refusal("result.json and steps.jsonl");
    assert!(
        error.contains(&format!("steps.jsonl line {line} ")),
        "{error}"
    );
    restore();

    // journal.jsonl: one recorded verdict turned around.
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    let at = text
        .lines()
        .position(|l| l.contains("\"reproduced\":false"))
        .expect("a miss in the journal");
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == at {
                l.replacen("\"reproduced\":false", "\"reproduced\":true", 1)
            } else {
                l.to_owned()
            }
        })
        .collect();
    std::fs::write(dir.join("journal.jsonl"), lines.join("\n") + "\n").unwrap();
    let error = refusal("journal.jsonl");
    assert!(
        error.contains(&format!(
            "journal.jsonl line {} does not match its seal",
            at + 1
        )),
        "{error}"
    );
    // In words, on the terminal too.
    let out = env.whittle(&["approve", &evidence]);
    assert_exit(&out, 3);
    assert!(
        stderr(&out).contains(&format!("journal.jsonl line {}", at + 1)),
        "{}",
        streams(&out)
    );
    assert!(!sidecar.exists());

    // Without its journal, nothing proves the run.
    std::fs::remove_file(dir.join("journal.jsonl")).unwrap();
    assert!(refusal("no journal").contains("it has no journal"));

    restore();
    assert_exit(&env.whittle(&["approve", &evidence]), 0);
    assert_eq!(
        read_json(&sidecar)["crashes"]["c1"]["minimized_repro_path"],
        json!([1, 9, 10, 11, 12])
    );
}

/// An approval never silently replaces a newer one: approving an older run over it is
/// refused and prints both entries, and only `--replace` writes it.
#[test]
fn replacing_a_newer_approval_needs_replace() {
    let env = Env::fast(&[]);
    let (session, older) = unapproved_run(&env);
    let sidecar = session.join("crashes.minimized.json");
    // Approval times are whole seconds: the newer run is approved in a later one than
    // the older run started in, however fast the simulator is.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let newer = evidence_of(&env.minimize_json(SESSION, "120", &[]));
    assert_exit(&env.whittle(&["approve", &newer]), 0);
    // The same run again is no replacement of a newer one.
    assert_exit(&env.whittle(&["approve", &newer]), 0);
    let held = std::fs::read(&sidecar).unwrap();

    let out = env.whittle(&["approve", &older]);
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert!(
        err.contains("already has a newer approval")
            && err.contains("approve again with --replace")
            && err.contains("Approved now (kept):")
            && err.contains("This run would write:"),
        "{err}"
    );
    let (kept_part, would_part) = err.split_once("This run would write:").unwrap();
    assert!(
        kept_part.contains(&format!("\"evidence_session\": \"{newer}\"")),
        "{err}"
    );
    assert!(
        would_part.contains(&format!("\"evidence_session\": \"{older}\"")),
        "{err}"
    );
    assert_eq!(std::fs::read(&sidecar).unwrap(), held, "nothing written");

    let answer = json_out(&env.whittle(&["approve", &older, "--json"]));
    assert_eq!(answer["status"], "refused");
    assert_eq!(answer["held"]["evidence_session"], newer.as_str());
    assert_eq!(answer["replacing"]["evidence_session"], older.as_str());
    assert_eq!(std::fs::read(&sidecar).unwrap(), held, "nothing written");

    let replaced = env.whittle_json(&["approve", &older, "--replace", "--json"]);
    assert_eq!(replaced["status"], "approved");
    assert_eq!(
        read_json(&sidecar)["crashes"]["c1"]["evidence_session"],
        older.as_str()
    );
}
