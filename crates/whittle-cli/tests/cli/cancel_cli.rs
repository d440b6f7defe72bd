//! Ctrl-C during `whittle minimize`: the run stops after the current step, the capture
//! is stopped, the evidence session is finalized `failed`, nothing is written back, the
//! exit code is 5, cancelled (docs/cli.md), and `whittle sessions` and `whittle runs` list the
//! run as cancelled.

use crate::common;

use std::process::Output;
use std::time::Duration;

use common::*;
use serde_json::json;

/// A model whose launches take 300 ms, so a run lasts long enough to be interrupted.
fn slow_env() -> Env {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 300, "action_ms": 0});
    Env::with_model(m)
}

fn assert_cancelled_cleanly(
    env: &Env,
    session: &std::path::Path,
    ev: &std::path::Path,
    out: &Output,
    took: Duration,
) {
    assert_eq!(
        out.status.code(),
        Some(5),
        "took {took:?}\nstdout: {}\nstderr: {}",
        stdout(out),
        stderr(out)
    );
    assert!(took < Duration::from_secs(5), "exit took {took:?}");
    let j = json_out(out);
    assert_eq!(j["status"], "cancelled", "{j}");
    assert!(j["sidecar"].is_null(), "{j}");
    assert_eq!(env.evidence_dirs(), vec![ev.to_path_buf()]);
    assert_eq!(meta_status(ev), "failed", "finalized as failed");
    assert!(
        ev.join("logcat.txt").is_file(),
        "the capture was stopped and saved"
    );
    assert!(ev.join("report.md").is_file());
    let result = read_json(&ev.join("result.json"));
    assert_eq!(result["write_back_allowed"], false, "{result}");
    assert!(
        !session.join("crashes.minimized.json").exists(),
        "no sidecar after a cancelled run, even with --approve"
    );
    // The run stopped early: far fewer attempts than a full run needs (17+).
    let attempts = session_steps(ev).len();
    assert!((1..10).contains(&attempts), "{attempts} attempts recorded");
    assert_listed_as_cancelled(env, ev);
}

/// Issue 40: `whittle sessions` names the run cancelled (its meta alone says failed),
/// and `whittle runs` (the window's past runs, `api::past_runs`) says so too, with the
/// resume a cancelled run offers.
fn assert_listed_as_cancelled(env: &Env, ev: &std::path::Path) {
    let id = ev.file_name().unwrap().to_string_lossy().into_owned();
    let out = env.whittle(&["sessions"]);
    let line = stdout(&out)
        .lines()
        .find(|l| l.trim_start().starts_with(&id))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{id} not listed: {}", stdout(&out)));
    assert!(line.contains("  cancelled  "), "{line}");
    assert!(line.contains(&format!("--resume {id}")), "{line}");
    let out = env.whittle(&["runs", CHECKOUT]);
    let run = stdout(&out)
        .lines()
        .find(|l| l.contains(&id))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{id} not in runs: {}", stdout(&out)));
    assert!(run.contains("  cancelled  "), "{run}");
}

/// Starts a minimize with `--approve`, waits for its first attempt, sends SIGINT to
/// what `target` names for the child's id, and checks the run was cancelled cleanly.
fn cancel_mid_run(target: impl FnOnce(u32) -> String) {
    let env = slow_env();
    let session = checkout_session(&env);
    let mut child = env.spawn_whittle(&[
        "minimize",
        CHECKOUT,
        "--max-replays",
        "120",
        "--approve",
        "--json",
    ]);
    let ev = env.wait_for_first_attempt(&mut child);
    send_sigint(&target(child.id()));
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_cancelled_cleanly(&env, &session, &ev, &out, took);
}

#[test]
fn sigint_to_whittle_cancels_finalizes_failed_and_writes_nothing_back() {
    cancel_mid_run(|pid| pid.to_string());
}

/// A terminal's Ctrl-C signals the whole foreground process group: the MCP servers
/// whittle started must survive it long enough to stop the capture and finalize.
#[test]
fn ctrl_c_to_the_process_group_still_stops_the_capture_and_finalizes() {
    cancel_mid_run(|pid| format!("-{pid}"));
}
