//! `kill -9` of `whittle minimize` mid-run, then `whittle minimize --resume` (issue #20):
//! `whittle sessions` shows the orphan as interrupted, the resume reaches the same
//! minimal path with the same attempts as an uninterrupted run in the same evidence
//! session, and the attempts journaled before the kill are not replayed (the app's
//! launches in the resumed capture are exactly the attempts still to run).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

const SESSION: &str = CHECKOUT;

/// Launches take 150 ms, so the run lasts long enough to be killed mid-way.
fn slow_env() -> Env {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 150, "action_ms": 0});
    Env::with_model(m)
}

/// (attempt, phase, candidate, verdict) of every evidence step, in file order.
fn evidence_attempts(evidence: &Path) -> Vec<(u64, String, Value, Value)> {
    session_steps(evidence)
        .iter()
        .map(|step| {
            let notes = notes_of(step);
            (
                notes["attempt"].as_u64().unwrap(),
                notes["phase"].as_str().unwrap().to_owned(),
                notes["candidate"].clone(),
                notes["outcome"]["verdict"]["reproduced"].clone(),
            )
        })
        .collect()
}

/// Starts `whittle minimize SESSION --json`, `kill -9`s it once `attempts` attempts are
/// journaled, and waits for its servers to exit. Returns the evidence session and its id.
fn kill_9_after(env: &Env, attempts: usize) -> (PathBuf, String) {
    let before = env.evidence_dirs();
    let mut child = env.spawn_whittle(&["minimize", SESSION, "--json"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    // Only the evidence session this run makes counts, not an earlier run's.
    let evidence = loop {
        if let Some(ev) = env.evidence_dirs().iter().find(|ev| !before.contains(ev)) {
            if journal_attempts(ev).len() >= attempts {
                break ev.clone();
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("whittle ended before it could be killed: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "no {attempts} attempts within 60 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    child.kill().expect("kill -9");
    child.wait().unwrap();
    // The servers it started see their stdin close and exit (no process is left behind).
    wait_for_orphans_to_exit(env.dir.path());
    let id = evidence.file_name().unwrap().to_string_lossy().into_owned();
    (evidence, id)
}

/// The line `whittle sessions` lists the run of `evidence` on (under its session).
fn interrupted_line(env: &Env, evidence: &str) -> Option<String> {
    let out = env.whittle(&["sessions"]);
    stdout(&out)
        .lines()
        // The id as a whole word: a later run of the same session is `<id>-2`.
        .find(|l| l.split_whitespace().next() == Some(evidence))
        .map(str::to_owned)
}

#[test]
fn kill_9_then_resume_reaches_the_same_minimal_path_without_replaying_the_journaled() {
    // The run as it goes uninterrupted.
    let whole = slow_env();
    checkout_session(&whole);
    let expected = whole.whittle_json(&["minimize", SESSION, "--json"]);
    let whole_evidence: PathBuf = whole.evidence_dirs()[0].clone();

    let env = slow_env();
    let session = checkout_session(&env);
    let (evidence, id) = kill_9_after(&env, 4);
    assert_eq!(meta_status(&evidence), "running", "nobody finalized it");

    // The lock died with the process: `whittle sessions` says interrupted.
    let line = interrupted_line(&env, &id).expect("the evidence session is listed");
    assert!(line.contains("  interrupted  "), "{line}");
    assert!(line.contains(&format!("--resume {id}")), "{line}");

    let kept = journal_attempts(&evidence)
        .iter()
        .filter(|a| a["outcome"]["kind"] == "replayed")
        .count() as u64;
    // Issue 41: the killed run counts the attempts its journal holds, not 0, in
    // `whittle runs` (and its JSON) and `whittle sessions` alike.
    let runs = env.whittle_json(&["runs", SESSION, "--json"]);
    let run = &runs["crashes"][0]["runs"][0];
    assert_eq!(run["outcome"], "interrupted", "{runs}");
    assert_eq!(run["attempts"], json!(kept), "{runs}");
    assert!(line.contains(&format!("  {kept} attempts")), "{line}");
    let before_resume = launches_per_capture(&evidence);
    assert_eq!(before_resume.len(), 1);
    // At most the replay in flight was lost.
    assert!(
        before_resume[0] == kept || before_resume[0] == kept + 1,
        "{before_resume:?} launches, {kept} journaled"
    );

    let j = env.whittle_json(&["minimize", "--resume", &id, "--json", "--approve"]);
    assert_eq!(j["status"], "minimized", "{j}");
    assert_eq!(j["minimal_path"], json!([1, 9, 10, 11, 12]));
    assert_eq!(j["minimal_path"], expected["minimal_path"]);
    assert_eq!(j["attempts"], expected["attempts"]);
    assert_eq!(j["confidence"], expected["confidence"]);
    assert_eq!(
        j["evidence_session"],
        json!(id),
        "the evidence session stays one"
    );
    assert_eq!(j["resumed"][0]["after_attempts"], json!(kept), "{j}");
    assert!(j["sidecar"].is_string(), "{j}");
    assert_eq!(env.evidence_dirs(), vec![evidence.clone()]);

    // No journaled attempt ran again: the resumed capture saw exactly the rest.
    let launches = launches_per_capture(&evidence);
    assert_eq!(launches.len(), 2, "{launches:?}");
    assert_eq!(
        launches[1],
        j["attempts"].as_u64().unwrap() - kept,
        "{launches:?}"
    );
    // The evidence holds every attempt once, exactly as the uninterrupted run's.
    assert_eq!(
        evidence_attempts(&evidence),
        evidence_attempts(&whole_evidence)
    );
    assert_eq!(meta_status(&evidence), "passed");
    // Listed under its session by how the run ended, no longer resumable.
    let line = interrupted_line(&env, &id).unwrap();
    assert!(
        line.contains("  minimized  ") && line.ends_with("approved"),
        "{line}"
    );
    let report = std::fs::read_to_string(evidence.join("report.md")).unwrap();
    assert!(report.contains("Resumed: "), "{report}");
    assert!(session.join("crashes.minimized.json").is_file());
}

#[test]
fn a_resume_of_a_changed_session_is_refused_with_the_difference_named() {
    let env = slow_env();
    let session = checkout_session(&env);
    let (evidence, id) = kill_9_after(&env, 1);
    let journal = std::fs::read(evidence.join("journal.jsonl")).unwrap();

    // The tester re-recorded the crash meanwhile.
    let crashes = session.join("crashes.jsonl");
    let text = std::fs::read_to_string(&crashes).unwrap();
    std::fs::write(
        &crashes,
        text.replace(
            "\"ts\":\"2026-05-14T16:05:00Z\"",
            "\"ts\":\"2026-05-15T09:00:00Z\"",
        ),
    )
    .unwrap();
    assert_ne!(std::fs::read_to_string(&crashes).unwrap(), text);

    let out = env.whittle(&["minimize", "--resume", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("the files of session {SESSION} changed")),
        "{err}"
    );
    // Nothing was replayed or written.
    assert_eq!(
        std::fs::read(evidence.join("journal.jsonl")).unwrap(),
        journal
    );
    assert_eq!(launches_per_capture(&evidence).len(), 1, "no new capture");
    assert_eq!(meta_status(&evidence), "running");
    let line = interrupted_line(&env, &id).unwrap();
    assert!(line.contains("  interrupted  "), "{line}");

    // --resume with a session, or without anything, is a usage error.
    let out = env.whittle(&["minimize", SESSION, "--resume", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let out = env.whittle(&["minimize"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

/// Issue 30: deleting a live run's `run.lock` (and making it again) lets no second
/// process drive the run, and `whittle sessions` still lists it as running, because
/// both ask the lock the run holds, not the file.
#[test]
fn a_live_run_whose_lock_file_is_deleted_refuses_a_second_process() {
    let env = slow_env();
    checkout_session(&env);
    let mut child = env.spawn_whittle(&["minimize", SESSION, "--json"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let evidence = loop {
        if let Some(ev) = env.evidence_dirs().first() {
            if !journal_attempts(ev).is_empty() {
                break ev.clone();
            }
        }
        assert!(child.try_wait().unwrap().is_none(), "whittle ended early");
        assert!(Instant::now() < deadline, "no attempt within 60 s");
        std::thread::sleep(Duration::from_millis(10));
    };
    let id = evidence.file_name().unwrap().to_string_lossy().into_owned();
    let note = evidence.join("run.lock");
    std::fs::remove_file(&note).unwrap();
    std::fs::write(&note, "pid 1\n").unwrap();

    let second = env.whittle(&["minimize", "--resume", &id, "--json"]);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run went on meanwhile (else the refusal proves nothing)"
    );
    assert_exit(&second, 3);
    assert!(
        streams(&second).contains("still going on"),
        "{}",
        streams(&second)
    );
    let line = interrupted_line(&env, &id).expect("listed");
    assert!(line.contains("  running  "), "{line}");

    child.kill().expect("kill -9");
    child.wait().unwrap();
    wait_for_orphans_to_exit(env.dir.path());
    let line = interrupted_line(&env, &id).expect("listed");
    assert!(line.contains("  interrupted  "), "{line}");
    // One run wrote the journal: every attempt number once, in order.
    let numbers: Vec<u64> = journal_attempts(&evidence)
        .iter()
        .map(|a| a["attempt"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
}

/// Issue 40: a run killed, then the crash minimized afresh and approved. The old run is
/// no longer offered for resume, and resuming it is refused naming the newer approved
/// run, so finishing it can never replace that approval with an older run's result.
#[test]
fn an_interrupted_run_superseded_by_a_newer_approval_is_not_resumed() {
    let env = slow_env();
    let session = checkout_session(&env);
    let (evidence, id) = kill_9_after(&env, 2);
    let fresh = env.whittle_json(&["minimize", SESSION, "--json", "--approve"]);
    assert!(fresh["sidecar"].is_string(), "{fresh}");
    let newer = fresh["evidence_session"].as_str().unwrap().to_owned();
    assert_ne!(newer, id);

    let line = interrupted_line(&env, &id).expect("listed");
    assert!(line.contains("  interrupted  "), "{line}");
    assert!(!line.contains("--resume"), "no resume offered: {line}");
    let runs = stdout(&env.whittle(&["runs", SESSION]));
    let old = runs
        .lines()
        .find(|l| l.split_whitespace().any(|w| w == id))
        .unwrap();
    assert!(!old.contains("--resume"), "{runs}");

    let journal = std::fs::read(evidence.join("journal.jsonl")).unwrap();
    let out = env.whittle(&["minimize", "--resume", &id, "--approve"]);
    assert_exit(&out, 3);
    assert!(
        stderr(&out).contains(&format!(
            "{newer}, a newer run of the same crash, was approved since"
        )),
        "{}",
        streams(&out)
    );
    assert_eq!(
        std::fs::read(evidence.join("journal.jsonl")).unwrap(),
        journal,
        "nothing was replayed or written"
    );
    let sidecar = read_json(&session.join("crashes.minimized.json"));
    assert_eq!(sidecar["crashes"]["c1"]["evidence_session"], json!(newer));
}

/// Issue 53: one rule for replacing an approval. An older run approved while this one
/// was interrupted is newer than this run's result (approved after it started): finishing
/// this run with `--resume --approve` keeps that approval and prints both entries, as
/// `whittle approve` does, and only `--replace` writes this run's.
#[test]
fn resume_approve_keeps_an_approval_made_since_the_run_started_unless_replace() {
    let env = slow_env();
    let session = checkout_session(&env);
    let sidecar = session.join("crashes.minimized.json");
    // An older run, finished and not approved.
    let older = env.whittle_json(&["minimize", SESSION, "--json"]);
    let older = evidence_of(&older);
    // This run, killed mid-way; then the older run is approved meanwhile.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let (_, id) = kill_9_after(&env, 2);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    env.whittle_json(&["approve", &older, "--json"]);
    let held = read_json(&sidecar)["crashes"]["c1"].clone();
    assert_eq!(held["evidence_session"], json!(older));

    let out = env.whittle(&["minimize", "--resume", &id, "--approve", "--json"]);
    assert_exit(&out, 3);
    let answer = json_out(&out);
    assert_eq!(
        answer["status"], "minimized",
        "the run itself ended: {answer}"
    );
    assert_eq!(answer["sidecar"], Value::Null);
    assert_eq!(answer["held"], held, "{answer}");
    assert_eq!(answer["replacing"]["evidence_session"], json!(id));
    assert_eq!(read_json(&sidecar)["crashes"]["c1"], held, "kept");

    // The same rule from its evidence; --replace writes it.
    let out = env.whittle(&["approve", &id]);
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("--replace"), "{}", streams(&out));
    env.whittle_json(&["approve", &id, "--replace", "--json"]);
    assert_eq!(
        read_json(&sidecar)["crashes"]["c1"]["evidence_session"],
        json!(id)
    );
}
