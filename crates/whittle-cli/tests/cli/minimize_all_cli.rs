//! `whittle minimize --all` end to end on a copy of the demo workspace, with the real
//! servers over stdio MCP: one JSON object per crash group and the worst item's exit
//! code; the summary table in text mode; `--workspace`; nothing written back without
//! `--approve`; the argument conflicts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

use crate::common::*;

/// A copy of `demo/` with no waits; the path of its `whittle.json`.
fn demo_copy(root: &Path) -> PathBuf {
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
        m["timing"] = json!({"launch_ms": 0, "action_ms": 0});
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

fn whittle(config: &Path, args: &[&str]) -> Output {
    servers_binary();
    Command::new(env!("CARGO_BIN_EXE_whittle"))
        .arg("--config")
        .arg(config)
        .args(args)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap()
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

/// The exit code docs/design.md §8 gives one item, as a single run would exit.
fn item_code(line: &Value) -> i32 {
    let state = &line["state"];
    match state["state"].as_str().unwrap() {
        "finished" => match state["summary"]["status"].as_str().unwrap() {
            "minimized" | "unproven" => 0,
            "not_reproduced" | "static" => 1,
            _ => 3,
        },
        "skipped" => 0,
        "cancelled" => 3,
        other => panic!("unexpected state {other}: {line}"),
    }
}

#[test]
fn all_json_prints_one_object_per_crash_group_and_exits_with_the_worst() {
    let root = tempfile::tempdir().unwrap();
    let config = demo_copy(root.path());
    let workspace = config.parent().unwrap().join("workspace");
    let out = whittle(
        &config,
        &["minimize", "--all", "--json", "--max-replays", "2"],
    );
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), crash_count(&workspace), "{}", streams(&out));
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
    assert_exit(&out, 0);
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
    assert_exit(&out, 1);
    assert!(
        stderr(&out).contains("no crash group to minimize"),
        "{}",
        streams(&out)
    );

    // --all takes no session, --crash or --resume.
    for extra in [&[CHECKOUT][..], &["--crash", "c1"], &["--resume", "x"]] {
        let mut args = vec!["minimize", "--all"];
        args.extend_from_slice(extra);
        assert_exit(&whittle(&config, &args), 2);
    }
}
