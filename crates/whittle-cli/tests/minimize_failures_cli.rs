//! `whittle minimize` end to end when the setup fails mid-run: the capture dies, the
//! device disappears, a server dies. The run fails, evidence is kept, nothing is written
//! back.

mod common;

use common::*;

#[test]
fn capture_dying_mid_run_fails_the_run_and_writes_nothing_back() {
    let env = Env::fast(&["--fault", "capture-dies-after=3"]);
    let session = checkout_session(&env);
    let out = env.whittle(&[
        "minimize",
        "2026-05-14_160354_checkout-npe",
        "--max-replays",
        "60",
        "--approve",
    ]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        !session.join("crashes.minimized.json").exists(),
        "no sidecar even with --approve"
    );
    let ev = &env.evidence_dirs()[0];
    assert_eq!(meta_status(ev), "failed");
    assert!(
        stdout(&out).contains("log capture failed"),
        "{}",
        stdout(&out)
    );
}

/// The device disappears mid-run (a pulled cable): the run fails with the reason, the
/// capture is stopped, the evidence so far (log, steps) is kept, nothing is written back.
#[test]
fn a_device_disappearing_mid_run_fails_the_run_keeps_evidence_and_writes_nothing_back() {
    let env = Env::fast(&["--fault", "device-gone-after-launches=3"]);
    let session = checkout_session(&env);
    let out = env.whittle(&[
        "minimize",
        "2026-05-14_160354_checkout-npe",
        "--max-replays",
        "60",
        "--approve",
        "--json",
    ]);
    let shown = format!("stdout: {}\nstderr: {}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(3), "{shown}");
    assert!(!session.join("crashes.minimized.json").exists(), "{shown}");
    let ev = &env.evidence_dirs()[0];
    assert_eq!(meta_status(ev), "failed");
    assert!(ev.join("logcat.txt").is_file(), "the capture's log is kept");
    assert!(
        !evidence_steps(ev).is_empty(),
        "the replays before it are kept"
    );
    let j = json_out(&out);
    assert!(
        j["status"] == "runtime_failed" || j["status"] == "capture_failed",
        "{j}"
    );
    assert!(j["sidecar"].is_null());
    assert!(
        shown.contains("disconnected"),
        "the reason is given: {shown}"
    );
}

#[test]
fn a_server_dying_mid_run_is_an_infrastructure_failure() {
    let env = Env::fast(&["--fault", "exit-after-launches=3"]);
    let session = checkout_session(&env);
    let out = env.whittle(&[
        "minimize",
        "2026-05-14_160354_checkout-npe",
        "--max-replays",
        "60",
        "--approve",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    assert!(!session.join("crashes.minimized.json").exists());
    let ev = &env.evidence_dirs()[0];
    assert_eq!(meta_status(ev), "failed");
    let j = json_out(&out);
    assert!(
        j["status"] == "runtime_failed" || j["status"] == "capture_failed",
        "{j}"
    );
    assert!(j["sidecar"].is_null());
}
