//! Issue 53: any proven run is approvable, whatever made it. Each case makes one run of
//! the checkout crash — on 1 or 2 simulated devices, with each search strategy, straight
//! through or killed (`kill -9`) mid-run and resumed, or by *Minimize all* — and
//! approves it twice, from its evidence alone: through the application API the window
//! uses (`Runs::reopen_run`, then `approve_held`: a past run reopened, its preview
//! approved) and with `whittle approve`. Both must write the entry the result names, the
//! same entry. So a new feature that journals something the approval check does not
//! follow (as speculative guesses once were) fails here, not in a user's hands.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};
use whittle_service::api::{Replace, Runs};

const SESSION: &str = CHECKOUT;
const SIDECAR: &str = "crashes.minimized.json";

#[derive(Clone, Copy)]
enum Made {
    /// `whittle minimize` straight through.
    Straight,
    /// `whittle minimize` killed with `kill -9` once 3 attempts are journaled, then
    /// `whittle minimize --resume`.
    Resumed,
    /// `whittle minimize --all` (the queue's use case).
    Queue,
}

/// A simulator of 2 devices whose launches take long enough for a run to be killed
/// mid-way.
fn env() -> Env {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 40, "action_ms": 0});
    let env = Env::with_model(m);
    env.edit_config(|config| {
        let args = config["mcpServers"]["sim"]["args"].as_array_mut().unwrap();
        let at = args.iter().position(|a| a == "--devices").unwrap();
        args[at + 1] = json!("2");
    });
    checkout_session(&env);
    env
}

/// Makes the run and returns its `--json` summary.
fn make_run(env: &Env, devices: &str, strategy: &str, made: Made) -> Value {
    let options = ["--devices", devices, "--strategy", strategy];
    match made {
        Made::Straight => env.minimize_json_with_exit(SESSION, &options),
        Made::Resumed => {
            let mut args = vec!["minimize", SESSION, "--max-replays", "120", "--json"];
            args.extend_from_slice(&options);
            let mut child = env.spawn_whittle(&args);
            let deadline = Instant::now() + Duration::from_secs(60);
            let evidence = loop {
                if let Some(ev) = env.evidence_dirs().first() {
                    if journal_attempts(ev).len() >= 3 {
                        break ev.clone();
                    }
                }
                if let Ok(Some(status)) = child.try_wait() {
                    panic!("whittle ended before it could be killed: {status}");
                }
                assert!(Instant::now() < deadline, "no 3 attempts within 60 s");
                std::thread::sleep(Duration::from_millis(5));
            };
            child.kill().expect("kill -9");
            child.wait().unwrap();
            wait_for_orphans_to_exit(env.dir.path());
            let id = evidence.file_name().unwrap().to_str().unwrap().to_owned();
            let out = env.whittle(&["minimize", "--resume", &id, "--devices", devices, "--json"]);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{}",
                streams(&out)
            );
            let answer = json_out(&out);
            assert_eq!(answer["evidence_session"], id.as_str(), "{answer}");
            answer
        }
        Made::Queue => {
            let mut args = vec!["minimize", "--all", "--json"];
            args.extend_from_slice(&options);
            let out = env.whittle(&args);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{}",
                streams(&out)
            );
            // One line per crash group; the checkout session has one.
            let line = stdout(&out)
                .lines()
                .find(|l| l.contains(SESSION))
                .map(str::to_owned)
                .unwrap_or_else(|| panic!("{}", streams(&out)));
            let group: Value = serde_json::from_str(&line).unwrap();
            group["state"]["summary"].clone()
        }
    }
}

impl Env {
    /// `whittle minimize` with the generous budget every strategy needs here; it must
    /// end proven or unproven (exit 0 or 1: a result that may be written back).
    fn minimize_json_with_exit(&self, id: &str, extra: &[&str]) -> Value {
        let out = self.minimize(id, "120", &[&["--json"], extra].concat());
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            streams(&out)
        );
        json_out(&out)
    }
}

fn sidecar_entry(session: &Path) -> Value {
    read_json(&session.join(SIDECAR))["crashes"]["c1"].clone()
}

/// The entry without the moment it was approved.
fn unstamped(mut entry: Value) -> Value {
    entry.as_object_mut().unwrap().remove("approved_at");
    entry
}

fn approve_both_ways(devices: &str, strategy: &str, made: Made) {
    let env = env();
    let summary = make_run(&env, devices, strategy, made);
    assert!(
        matches!(summary["status"].as_str(), Some("minimized" | "unproven")),
        "{summary}"
    );
    assert_eq!(summary["sidecar"], Value::Null, "nothing written yet");
    let evidence = evidence_of(&summary);
    let session = env.session_dir(SESSION);

    // The window: the past run reopened from disk (nothing held in memory), then its
    // preview approved.
    let runs = Runs::<()>::default();
    let opened = runs
        .reopen_run(&env.workspace, SESSION, &evidence)
        .unwrap_or_else(|e| panic!("{e}"));
    let view = opened.result.expect("a result");
    assert_eq!(view.approve_blocked, None, "{evidence}: {view:?}");
    assert!(view.sidecar_preview.is_some(), "approvable");
    runs.approve_held(&evidence, Replace::OnlyOlder)
        .unwrap_or_else(|e| panic!("the window's Approve of {evidence}: {e}"));
    let from_window = sidecar_entry(&session);
    assert_eq!(from_window["evidence_session"], evidence.as_str());
    assert_eq!(from_window["minimized_repro_path"], summary["minimal_path"]);
    assert_eq!(from_window["minimized_attempts"], summary["attempts"]);

    // The terminal, on the same run: the same entry (it approves the same run again).
    std::fs::remove_file(session.join(SIDECAR)).unwrap();
    let approved = env.whittle_json(&["approve", &evidence, "--crash", "c1", "--json"]);
    assert_eq!(approved["status"], "approved", "{approved}");
    assert_eq!(
        unstamped(sidecar_entry(&session)),
        unstamped(from_window),
        "the window and the terminal write one entry"
    );
}

/// One test per case, so the harness runs them side by side.
macro_rules! approvable {
    ($($name:ident: $devices:literal, $strategy:literal, $made:expr;)*) => {
        $(
            #[test]
            fn $name() {
                approve_both_ways($devices, $strategy, $made);
            }
        )*
    };
}

approvable! {
    seed_on_one_device: "1", "seed", Made::Straight;
    seed_on_two_devices: "2", "seed", Made::Straight;
    binary_on_one_device: "1", "binary", Made::Straight;
    binary_on_two_devices: "2", "binary", Made::Straight;
    flaky_on_one_device: "1", "flaky", Made::Straight;
    flaky_on_two_devices: "2", "flaky", Made::Straight;
    seed_resumed_on_one_device: "1", "seed", Made::Resumed;
    seed_resumed_on_two_devices: "2", "seed", Made::Resumed;
    binary_resumed_on_one_device: "1", "binary", Made::Resumed;
    binary_resumed_on_two_devices: "2", "binary", Made::Resumed;
    flaky_resumed_on_two_devices: "2", "flaky", Made::Resumed;
    queue_on_two_devices: "2", "seed", Made::Queue;
}
