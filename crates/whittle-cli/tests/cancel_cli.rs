//! Ctrl-C during `whittle minimize`: the run stops after the current step, the capture
//! is stopped, the evidence session is finalized `failed`, nothing is written back and
//! the exit code is 3 (docs/design.md §8).

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

/// A model whose launches take 300 ms, so a run lasts long enough to be interrupted.
fn slow_env() -> Env {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 300, "action_ms": 0});
    Env::new(
        m,
        &[],
        json!({"settle_ms": 0, "drain_interval_ms": 30, "action_pause_ms": 0}),
    )
}

/// Waits until the run's evidence session holds at least one recorded attempt.
fn wait_for_first_attempt(env: &Env, child: &mut Child) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(ev) = env.evidence_dirs().first() {
            if !session_steps(ev).is_empty() {
                return ev.clone();
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("whittle ended before the first attempt: {status}");
        }
        assert!(Instant::now() < deadline, "no attempt recorded within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `kill -INT <target>` with a literal argv; `-PGID` signals the whole process group.
fn send_sigint(target: &str) {
    let status = Command::new("kill")
        .args(["-INT", "--", target])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -INT {target} failed");
}

/// Waits for the exit, at most `limit` after the signal.
fn wait_with_limit(mut child: Child, limit: Duration) -> (Output, Duration) {
    let signalled = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            let took = signalled.elapsed();
            return (child.wait_with_output().expect("output"), took);
        }
        if signalled.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "whittle still running {limit:?} after SIGINT\nstdout: {}\nstderr: {}",
                stdout(&out),
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
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
        Some(3),
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
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["write_back_allowed"], false, "{result}");
    assert!(
        !session.join("crashes.minimized.json").exists(),
        "no sidecar after a cancelled run, even with --approve"
    );
    // The run stopped early: far fewer attempts than a full run needs (17+).
    let attempts = session_steps(ev).len();
    assert!((1..10).contains(&attempts), "{attempts} attempts recorded");
}

#[test]
fn sigint_to_whittle_cancels_finalizes_failed_and_writes_nothing_back() {
    let env = slow_env();
    let session = checkout_session(&env);
    let mut child = env.spawn_whittle(&[
        "minimize",
        "2026-05-14_160354_checkout-npe",
        "--max-replays",
        "120",
        "--approve",
        "--json",
    ]);
    let ev = wait_for_first_attempt(&env, &mut child);
    send_sigint(&child.id().to_string());
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_cancelled_cleanly(&env, &session, &ev, &out, took);
}

/// A terminal's Ctrl-C signals the whole foreground process group: the MCP servers
/// whittle started must survive it long enough to stop the capture and finalize.
#[test]
fn ctrl_c_to_the_process_group_still_stops_the_capture_and_finalizes() {
    let env = slow_env();
    let session = checkout_session(&env);
    let mut child = env.spawn_whittle(&[
        "minimize",
        "2026-05-14_160354_checkout-npe",
        "--max-replays",
        "120",
        "--approve",
        "--json",
    ]);
    let ev = wait_for_first_attempt(&env, &mut child);
    send_sigint(&format!("-{}", child.id()));
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_cancelled_cleanly(&env, &session, &ev, &out, took);
}
