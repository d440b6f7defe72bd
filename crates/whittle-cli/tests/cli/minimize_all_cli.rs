//! `whittle minimize --all` end to end on a copy of the demo workspace, with the real
//! servers over stdio MCP: one JSON object per crash group and the worst item's exit
//! code; the summary table in text mode; `--workspace`; nothing written back without
//! `--approve`; the argument conflicts; and a second `--all` after one was killed
//! resumes the interrupted groups instead of starting them over (issue 40).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;

/// A copy of `demo/` with no waits; the path of its `whittle.json`.
fn demo_copy(root: &Path) -> PathBuf {
    demo_copy_launching_in(root, 0)
}

/// A copy of `demo/` whose app takes `launch_ms` to launch (long enough to kill a run
/// mid-way), no other waits; the path of its `whittle.json`.
fn demo_copy_launching_in(root: &Path, launch_ms: u64) -> PathBuf {
    let demo = root.join("demo");
    copy_tree(&repo_root().join("demo"), &demo);
    let edit = |file: &str, change: &dyn Fn(&mut Value)| {
        let path = demo.join(file);
        let mut value = read_json(&path);
        change(&mut value);
        std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    };
    edit("whittle.json", &|c| c["timing"] = fast_timing());
    edit("shop.json", &|m| {
        m["timing"] = json!({"launch_ms": launch_ms, "action_ms": 0});
    });
    demo.join("whittle.json")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn whittle_command(config: &Path, args: &[&str]) -> Command {
    servers_binary();
    let mut command = Command::new(env!("CARGO_BIN_EXE_whittle"));
    command
        .arg("--config")
        .arg(config)
        .args(args)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    command
}

fn whittle(config: &Path, args: &[&str]) -> Output {
    whittle_command(config, args).output().unwrap()
}

/// The demo's session with a truncated steps.jsonl: reported, left out of the queue.
const BROKEN: &str = "2026-05-16_120000_broken-export";

/// The crash groups recorded in `workspace`'s readable sessions.
fn crash_count(workspace: &Path) -> usize {
    std::fs::read_dir(workspace.join("sessions"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != BROKEN)
        .filter_map(|e| std::fs::read_to_string(e.path().join("crashes.jsonl")).ok())
        .map(|text| text.lines().filter(|l| !l.trim().is_empty()).count())
        .sum()
}

/// The exit code docs/cli.md gives one item, as a single run would exit; each line
/// carries it as `exit`.
fn item_code(line: &Value) -> i32 {
    let state = &line["state"];
    let code = match state["state"].as_str().unwrap() {
        "finished" => match state["summary"]["status"].as_str().unwrap() {
            "minimized" => 0,
            "unproven" => 1,
            "not_reproduced" => 2,
            "static" => 3,
            "cancelled" => 5,
            _ => 4,
        },
        "skipped" => 0,
        "failed" => 3,
        "cancelled" => 5,
        other => panic!("unexpected state {other}: {line}"),
    };
    if state["state"] != "failed" {
        assert_eq!(line["exit"], code, "{line}");
    }
    line["exit"].as_i64().unwrap() as i32
}

#[test]
fn all_json_prints_one_object_per_crash_group_and_exits_with_the_worst() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy(root.path());
    let workspace = config.parent().unwrap().join("workspace");
    // `--list` names the groups `--all` runs (a CI matrix is built from it), and runs none.
    let listed = whittle(&config, &["minimize", "--all", "--list", "--json"]);
    assert_exit(&listed, 0);
    let listed = json_out(&listed);
    assert_eq!(listed["exit"], 0);
    assert!(
        evidence_of(&workspace, CHECKOUT).is_empty(),
        "--list runs nothing"
    );
    assert_eq!(listed["unreadable"][0]["session"], BROKEN, "{listed}");
    let mut listed: Vec<(String, String)> = listed["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["session"].as_str().unwrap().to_owned(),
                g["crash_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let out = whittle(
        &config,
        &["minimize", "--all", "--json", "--max-replays", "2"],
    );
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), crash_count(&workspace), "{}", streams(&out));
    let mut ran: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["session"].as_str().unwrap().to_owned(),
                l["crash_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    listed.sort();
    ran.sort();
    assert_eq!(listed, ran, "--list named what --all ran");
    assert!(
        stderr(&out).contains(&format!("session {BROKEN} left out")),
        "{}",
        streams(&out)
    );
    let mut ids: Vec<u64> = lines.iter().map(|l| l["id"].as_u64().unwrap()).collect();
    ids.dedup();
    assert_eq!(ids.len(), lines.len(), "ids are unique");
    for line in &lines {
        assert!(
            line["session"].is_string() && line["crash_id"].is_string(),
            "{line}"
        );
        assert!(line["sidecar"].is_null(), "nothing written back: {line}");
    }
    let find = |session: &str, crash: &str| {
        lines
            .iter()
            .find(|l| l["session"] == session && l["crash_id"] == crash)
            .unwrap_or_else(|| panic!("{session} {crash} missing"))
    };
    let checkout = find(CHECKOUT, "c1");
    assert_eq!(checkout["state"]["state"], "finished", "{checkout}");
    let summary = &checkout["state"]["summary"];
    assert_eq!(summary["crash_id"], "c1");
    assert!(summary["attempts"].as_u64().unwrap() <= 2, "{summary}");
    assert!(summary["evidence_session"].is_string());
    let anr = find("2026-05-15_101200_flaky-and-anr", "c2");
    assert!(anr["state"]["state"].is_string(), "{anr}");
    let worst = lines.iter().map(item_code).max().unwrap();
    assert_exit(&out, worst);
    for entry in std::fs::read_dir(workspace.join("sessions"))
        .unwrap()
        .flatten()
    {
        assert!(
            !entry.path().join("crashes.minimized.json").exists(),
            "no sidecar without --approve: {}",
            entry.path().display()
        );
    }
}

#[test]
fn all_in_text_ends_with_the_table_and_takes_another_workspace() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy(root.path());
    let demo_sessions = config.parent().unwrap().join("workspace/sessions");
    // Another workspace: the checkout session, and one without crashes (no row).
    let other = root.path().join("other");
    for id in [CHECKOUT, "2026-05-16_090000_browse-no-crash"] {
        copy_tree(&demo_sessions.join(id), &other.join("sessions").join(id));
    }
    let out = whittle(
        &config,
        &[
            "minimize",
            "--all",
            "--workspace",
            other.to_str().unwrap(),
            "--max-replays",
            "2",
        ],
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    let mut table = text.lines();
    let header: Vec<&str> = table.next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        ["Session", "Crash", "Result", "Steps", "Attempts", "Evidence"],
        "{text}"
    );
    let row: Vec<&str> = table.next().unwrap().split_whitespace().collect();
    assert_eq!(row[..2], [CHECKOUT, "c1"], "{text}");
    assert!(row.iter().any(|c| c.starts_with("12→")), "{text}");
    assert!(
        row.last().unwrap().contains("minimize-checkout-npe"),
        "{text}"
    );
    assert!(
        table.next().is_none(),
        "no row for a session without crashes: {text}"
    );
    assert!(
        stderr(&out).contains(&format!("[1/1] {CHECKOUT} c1")),
        "{}",
        streams(&out)
    );
    assert!(
        stderr(&out).contains("side by side, one crash group on each of 2 devices: sim-1, sim-2"),
        "the demo's two devices take an item each: {}",
        streams(&out)
    );
    let evidence = std::fs::read_dir(other.join("sessions")).unwrap().count();
    assert_eq!(
        evidence, 3,
        "the run's evidence went to the other workspace"
    );

    // A workspace with no crash group at all: nothing to do, "no result".
    let empty = root.path().join("empty");
    copy_tree(
        &demo_sessions.join("2026-05-16_090000_browse-no-crash"),
        &empty.join("sessions/2026-05-16_090000_browse-no-crash"),
    );
    let out = whittle(
        &config,
        &["minimize", "--all", "--workspace", empty.to_str().unwrap()],
    );
    assert_exit(&out, 3);
    assert!(
        stderr(&out).contains("no crash group to minimize"),
        "{}",
        streams(&out)
    );

    // --all takes no session, --crash or --resume.
    for extra in [&[CHECKOUT][..], &["--crash", "c1"], &["--resume", "x"]] {
        let mut args = vec!["minimize", "--all"];
        args.extend_from_slice(extra);
        assert_exit(&whittle(&config, &args), 3);
    }
}

/// A second `--all` leaves a group it just minimized (not approved, its session
/// unchanged) to be reviewed, and says so; `--include-minimized` runs it anyway.
#[test]
fn a_second_all_skips_what_it_just_minimized_unless_asked() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy(root.path());
    let workspace = config.parent().unwrap().join("workspace");
    keep_only_checkout(&workspace);
    let first = whittle(&config, &["minimize", "--all", "--json"]);
    let line: Value = serde_json::from_str(stdout(&first).lines().next().unwrap()).unwrap();
    let evidence = line["state"]["summary"]["evidence_session"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", streams(&first)))
        .to_owned();

    let listed = json_out(&whittle(
        &config,
        &["minimize", "--all", "--list", "--json"],
    ));
    let skip = &listed["groups"][0]["skip"];
    assert_eq!(skip["kind"], "minimized_unchanged", "{listed}");
    assert_eq!(skip["evidence_session"], evidence.as_str(), "{listed}");

    let second = whittle(&config, &["minimize", "--all"]);
    assert_exit(&second, 0);
    let row = stdout(&second)
        .lines()
        .find(|l| l.starts_with(CHECKOUT))
        .unwrap_or_else(|| panic!("{}", streams(&second)))
        .to_owned();
    assert!(
        row.contains("skipped: minimized, not approved yet, unchanged since")
            && row.contains(&evidence),
        "{row}"
    );
    assert_eq!(
        evidence_of(&workspace, CHECKOUT).len(),
        1,
        "nothing ran again"
    );

    let listed = json_out(&whittle(
        &config,
        &[
            "minimize",
            "--all",
            "--list",
            "--json",
            "--include-minimized",
        ],
    ));
    assert!(listed["groups"][0]["skip"].is_null(), "{listed}");
}

/// The evidence sessions of `session`'s runs in `workspace`, by folder name.
fn evidence_of(workspace: &Path, session: &str) -> Vec<PathBuf> {
    let suffix = session.splitn(3, '_').nth(2).unwrap();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace.join("sessions"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .ends_with(&format!("_minimize-{suffix}"))
        })
        .collect();
    dirs.sort();
    dirs
}

/// Starts `whittle minimize --all ARGS`, `kill -9`s it once the run of `session` has
/// journaled `attempts` attempts, and waits for the servers it started to exit. Returns
/// that run's evidence session.
fn kill_all_after(config: &Path, args: &[&str], session: &str, attempts: usize) -> PathBuf {
    let workspace = config.parent().unwrap().join("workspace");
    let mut all = vec!["minimize", "--all"];
    all.extend_from_slice(args);
    let mut child: Child = whittle_command(config, &all)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let evidence = loop {
        if let Some(ev) = evidence_of(&workspace, session).first() {
            if journal_attempts(ev).len() >= attempts {
                break ev.clone();
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("whittle ended before it could be killed: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "no {attempts} attempts of {session} within 120 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    child.kill().expect("kill -9");
    child.wait().unwrap();
    wait_for_orphans_to_exit(config.parent().unwrap());
    evidence
}

fn id_of(evidence: &Path) -> String {
    evidence.file_name().unwrap().to_string_lossy().into_owned()
}

/// `whittle runs SESSION --json`: the past runs of its crash `crash`.
fn runs_of(config: &Path, session: &str, crash: &str) -> Vec<Value> {
    let out = whittle(config, &["runs", session, "--json"]);
    assert_exit(&out, 0);
    let listed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    listed["crashes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["crash_id"] == crash)
        .unwrap()["runs"]
        .as_array()
        .unwrap()
        .clone()
}

/// Issue 40: `--all` killed mid-run, then `--all` again with the same options: the
/// interrupted group goes on in its evidence session — the attempts journaled before
/// the kill are not replayed (the resumed capture launches the app exactly once per
/// attempt still to run) — and afterwards no run of the workspace is listed as
/// interrupted.
#[test]
fn a_second_all_resumes_the_interrupted_groups_instead_of_starting_over() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy_launching_in(root.path(), 150);
    let workspace = config.parent().unwrap().join("workspace");
    let evidence = kill_all_after(&config, &["--json"], CHECKOUT, 3);
    let id = id_of(&evidence);
    let kept = journal_attempts(&evidence)
        .iter()
        .filter(|a| a["outcome"]["kind"] == "replayed")
        .count() as u64;
    let before = runs_of(&config, CHECKOUT, "c1");
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["outcome"], "interrupted", "{before:?}");
    assert_eq!(before[0]["resumable"], true, "{before:?}");

    let out = whittle(&config, &["minimize", "--all"]);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("resuming {id} where it stopped")),
        "{}",
        streams(&out)
    );
    let row: Vec<String> = stdout(&out)
        .lines()
        .find(|l| l.starts_with(CHECKOUT))
        .unwrap_or_else(|| panic!("no row for {CHECKOUT}: {}", streams(&out)))
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    assert_eq!(row.last(), Some(&id), "the same evidence session: {row:?}");
    assert_eq!(
        evidence_of(&workspace, CHECKOUT),
        vec![evidence.clone()],
        "no fresh run of the group"
    );

    let after = runs_of(&config, CHECKOUT, "c1");
    assert_eq!(after.len(), 1, "{after:?}");
    let run = &after[0];
    assert!(
        ["minimized", "unproven"].contains(&run["outcome"].as_str().unwrap()),
        "{run}"
    );
    assert_eq!(run["resumable"], false, "{run}");
    let attempts = run["attempts"].as_u64().unwrap();
    let resumed: Vec<Value> = std::fs::read_to_string(evidence.join("journal.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["record"] == "resumed")
        .collect();
    assert_eq!(resumed.len(), 1, "{resumed:?}");
    assert_eq!(resumed[0]["after_attempts"], json!(kept));
    // Not replayed again: the resumed capture saw only the attempts after the kept.
    let launches = launches_per_capture(&evidence);
    assert_eq!(launches.len(), 2, "{launches:?}");
    assert_eq!(launches[1], attempts - kept, "{launches:?}, {kept} kept");

    // No run of any session is left interrupted, nor offered for resume.
    for entry in std::fs::read_dir(workspace.join("sessions"))
        .unwrap()
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains("_minimize-") || name == BROKEN {
            continue;
        }
        let out = whittle(&config, &["runs", &name]);
        let text = stdout(&out);
        assert!(!text.contains("interrupted"), "{name}: {text}");
        assert!(!text.contains("--resume"), "{name}: {text}");
    }
}

/// Issue 40: an interrupted group that `--all` runs again with other options (here
/// another budget, which a resume may not change) runs afresh, and its interrupted
/// run is discarded rather than left behind to be resumed over the new result.
#[test]
fn an_all_with_other_options_reruns_the_group_and_discards_the_interrupted_run() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy_launching_in(root.path(), 150);
    let workspace = config.parent().unwrap().join("workspace");
    // The checkout session alone, so the queue is one item.
    keep_only_checkout(&workspace);
    let old = kill_all_after(&config, &[], CHECKOUT, 2);
    let out = whittle(
        &config,
        &["minimize", "--all", "--max-replays", "40", "--json"],
    );
    let line: Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    let fresh = line["state"]["summary"]["evidence_session"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", streams(&out)))
        .to_owned();
    assert_ne!(fresh, id_of(&old), "a fresh run");
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(
            workspace
                .join("sessions")
                .join(&fresh)
                .join("journal.jsonl"),
        )
        .unwrap()
        .lines()
        .next()
        .unwrap(),
    )
    .unwrap();
    assert_eq!(header["max_replays"], 40, "the budget asked for: {header}");
    assert_eq!(meta_status(&old), "failed", "the old run is ended for good");

    let runs = runs_of(&config, CHECKOUT, "c1");
    let outcome = |id: &str| {
        runs.iter()
            .find(|r| r["evidence_session"] == id)
            .unwrap_or_else(|| panic!("{id} not listed: {runs:?}"))
    };
    assert_eq!(outcome(&id_of(&old))["outcome"], "discarded", "{runs:?}");
    assert_eq!(outcome(&id_of(&old))["resumable"], false, "{runs:?}");
    assert_ne!(outcome(&fresh)["outcome"], "interrupted", "{runs:?}");
    let text = stdout(&whittle(&config, &["sessions"]));
    assert!(!text.contains("interrupted"), "{text}");
    assert!(!text.contains("--resume"), "{text}");
}

/// Removes every session of the demo workspace but the checkout one.
fn keep_only_checkout(workspace: &std::path::Path) {
    for entry in std::fs::read_dir(workspace.join("sessions"))
        .unwrap()
        .flatten()
    {
        if entry.file_name() != CHECKOUT {
            std::fs::remove_dir_all(entry.path()).unwrap();
        }
    }
}
