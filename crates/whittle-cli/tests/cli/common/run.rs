//! Running `whittle` the ways the tests do (a minimize, an export, a JSON answer), the
//! exit-code check every run starts with, and editing the config a test was given.

use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::output::{json_out, session_steps, stderr, stdout};
use super::Env;

/// The checkout session `checkout_session` writes.
pub const CHECKOUT: &str = "2026-05-14_160354_checkout-npe";

/// The config's timing with no waits but the drain's rounds (tests replay dozens of times).
pub fn fast_timing() -> Value {
    json!({"settle_ms": 0, "drain_interval_ms": 30, "action_pause_ms": 0})
}

/// Both streams, for a failed assertion's message.
pub fn streams(o: &Output) -> String {
    format!("stdout: {}\nstderr: {}", stdout(o), stderr(o))
}

/// Asserts `whittle` exited with `code`, showing both streams when it did not.
pub fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}", streams(o));
}

/// A JSON file's content.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The notes object a recorded or evidence step carries as a JSON string.
pub fn notes_of(step: &Value) -> Value {
    serde_json::from_str(step["notes"].as_str().unwrap()).unwrap()
}

/// The evidence session a `minimize --json` answer names.
pub fn evidence_of(answer: &Value) -> String {
    answer["evidence_session"].as_str().unwrap().to_string()
}

impl Env {
    /// `whittle minimize ID --max-replays BUDGET` followed by `extra`.
    pub fn minimize(&self, id: &str, budget: &str, extra: &[&str]) -> Output {
        let mut args = vec!["minimize", id, "--max-replays", budget];
        args.extend_from_slice(extra);
        self.whittle(&args)
    }

    /// `whittle ARGS` that must exit 0: its `--json` answer.
    pub fn whittle_json(&self, args: &[&str]) -> Value {
        let out = self.whittle(args);
        assert_exit(&out, 0);
        json_out(&out)
    }

    /// `whittle minimize ID --max-replays BUDGET --json` + `extra` that must exit 0.
    pub fn minimize_json(&self, id: &str, budget: &str, extra: &[&str]) -> Value {
        let out = self.minimize(id, budget, &[&["--json"], extra].concat());
        assert_exit(&out, 0);
        json_out(&out)
    }

    /// `whittle export EVIDENCE --out DIR --name NAME`.
    pub fn export(&self, evidence: &str, out_dir: &Path, name: &str) -> Output {
        self.whittle(&[
            "export",
            evidence,
            "--out",
            out_dir.to_str().unwrap(),
            "--name",
            name,
        ])
    }

    /// `whittle verify BUNDLE --runs N`, which must exit 0 having reproduced every run.
    pub fn verify_reproduces(&self, bundle: &Path, runs: u32) {
        let runs = runs.to_string();
        let out = self.whittle(&["verify", bundle.to_str().unwrap(), "--runs", &runs]);
        assert_exit(&out, 0);
        assert!(
            stdout(&out).contains(&format!("reproduced {runs} of {runs}")),
            "{}",
            stdout(&out)
        );
    }

    /// Rewrites whittle.json after `edit` changed it.
    pub fn edit_config(&self, edit: impl FnOnce(&mut Value)) {
        let mut config = read_json(&self.config);
        edit(&mut config);
        std::fs::write(&self.config, serde_json::to_vec_pretty(&config).unwrap()).unwrap();
    }

    /// A session whose crash's repro path is every one of its `steps`.
    pub fn add_whole_session(&self, id: &str, steps: &[Value], crash_stack: &str) -> PathBuf {
        let path: Vec<u32> = (1..=steps.len() as u32).collect();
        self.add_session(id, steps, crash_stack, &path)
    }

    /// Waits (at most 60 s) until `child`'s evidence session holds a recorded attempt.
    pub fn wait_for_first_attempt(&self, child: &mut Child) -> PathBuf {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(ev) = self.evidence_dirs().first() {
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
}
