//! `whittle minimize` end to end when the setup fails mid-run: the capture dies, the
//! device disappears, a server dies. The run fails, evidence is kept, nothing is written
//! back.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use common::*;

/// The checkout session minimized with `--approve` on a simulator with `fault`; the run
/// must exit 4 (failed) and write no sidecar. Returns the env (its temp dir holds the evidence),
/// the output and the evidence session, which must be finalized `failed`.
fn failing_run(fault: &str, extra: &[&str]) -> (Env, Output, PathBuf) {
    let env = Env::fast(&["--fault", fault]);
    let session = checkout_session(&env);
    let out = env.minimize(CHECKOUT, "60", &[&["--approve"], extra].concat());
    assert_exit(&out, 4);
    assert!(
        !session.join("crashes.minimized.json").exists(),
        "no sidecar even with --approve: {}",
        streams(&out)
    );
    let ev = env.evidence_dirs()[0].clone();
    assert_eq!(meta_status(&ev), "failed");
    (env, out, ev)
}

/// A `--json` answer of a run the infrastructure failed: no result, no sidecar.
fn assert_infrastructure_failure(out: &Output) {
    let j = json_out(out);
    assert!(
        j["status"] == "runtime_failed" || j["status"] == "capture_failed",
        "{j}"
    );
    assert!(j["sidecar"].is_null());
}

#[test]
fn capture_dying_mid_run_fails_the_run_and_writes_nothing_back() {
    let (_env, out, _) = failing_run("capture-dies-after=3", &[]);
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
    let (_env, out, ev) = failing_run("device-gone-after-launches=3", &["--json"]);
    assert!(ev.join("logcat.txt").is_file(), "the capture's log is kept");
    assert!(
        !evidence_steps(&ev).is_empty(),
        "the replays before it are kept"
    );
    assert_infrastructure_failure(&out);
    let shown = streams(&out);
    assert!(
        shown.contains("disconnected"),
        "the reason is given: {shown}"
    );
}

#[test]
fn a_server_dying_mid_run_is_an_infrastructure_failure() {
    let (_env, out, _) = failing_run("exit-after-launches=3", &["--json"]);
    assert_infrastructure_failure(&out);
}
