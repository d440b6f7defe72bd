//! Issue 41: `whittle` as a CI citizen. SIGTERM (what GitLab, Docker and Kubernetes send
//! on a cancel or a timeout) and SIGHUP (a closed terminal) cancel as Ctrl-C does — the
//! run finalizes its evidence, prints its object and exits 5 (cancelled), and can be
//! resumed — for `minimize` (one run and `--all`), `verify`, `import --record` and
//! `whittle mcp`; every outcome has its own exit code (docs/cli.md, "Exit codes"), and
//! every `--help` ends with that table.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

/// Exit codes of docs/cli.md.
const PROVEN: i32 = 0;
const UNPROVEN: i32 = 1;
const NOT_REPRODUCED: i32 = 2;
const REFUSED: i32 = 3;
const CANCELLED: i32 = 5;

/// A model whose launches take 300 ms, so a run lasts long enough to be signalled.
fn slow_env() -> Env {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 300, "action_ms": 0});
    Env::with_model(m)
}

/// `kill -<signal> <pid>` with a literal argv.
fn send(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid} failed");
}

/// The attempts the evidence's journal recorded with a verdict, each number once.
fn journaled_with_verdict(ev: &Path) -> u64 {
    let mut numbers: Vec<u64> = journal_attempts(ev)
        .iter()
        .filter(|a| a["outcome"]["kind"] == "replayed")
        .map(|a| a["attempt"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers.len() as u64
}

/// Starts `minimize --approve --json` on the slow demo, sends `signal` once its first
/// attempt is recorded, and checks what a cancel leaves: exit 5, the cancelled `--json`
/// object with its `exit`, the capture stopped and saved, the evidence finalized,
/// nothing written back, and the run listed as cancelled, resumable, with its journaled
/// attempts. Returns the env and the evidence session's id.
fn signal_mid_run(signal: &str) -> (Env, String) {
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
    send(signal, child.id());
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_exit(&out, CANCELLED);
    assert!(took < Duration::from_secs(5), "exit took {took:?}");
    let j = json_out(&out);
    assert_eq!(j["status"], "cancelled", "{j}");
    assert_eq!(j["exit"], CANCELLED, "{j}");
    assert!(j["sidecar"].is_null(), "{j}");
    assert_eq!(meta_status(&ev), "failed", "finalized");
    assert!(ev.join("logcat.txt").is_file(), "the capture was saved");
    assert!(ev.join("report.md").is_file());
    let result = read_json(&ev.join("result.json"));
    assert_eq!(result["status"], "cancelled", "{result}");
    assert_eq!(result["write_back_allowed"], false, "{result}");
    assert!(!session.join("crashes.minimized.json").exists());

    let id = ev.file_name().unwrap().to_string_lossy().into_owned();
    let attempts = journaled_with_verdict(&ev);
    assert!(attempts >= 1, "the first attempt is journaled");
    let runs = env.whittle_json(&["runs", CHECKOUT, "--json"]);
    assert_eq!(runs["exit"], PROVEN, "{runs}");
    let run = &runs["crashes"][0]["runs"][0];
    assert_eq!(run["evidence_session"], json!(id), "{runs}");
    assert_eq!(run["outcome"], "cancelled", "{runs}");
    assert_eq!(run["resumable"], true, "{runs}");
    assert_eq!(run["attempts"], json!(j["attempts"]), "{runs}");
    let sessions = stdout(&env.whittle(&["sessions"]));
    let line = sessions
        .lines()
        .find(|l| l.trim_start().starts_with(&id))
        .unwrap_or_else(|| panic!("{id} not listed: {sessions}"));
    assert!(line.contains("  cancelled  "), "{line}");
    assert!(line.contains(&format!("--resume {id}")), "{line}");
    (env, id)
}

#[test]
fn sigterm_mid_run_cancels_finalizes_prints_its_json_and_the_run_resumes() {
    let (env, id) = signal_mid_run("TERM");
    // Resumable: it goes on in the same evidence session to the proven result.
    let out = env.whittle(&["minimize", "--resume", &id, "--json"]);
    assert_exit(&out, PROVEN);
    let j = json_out(&out);
    assert_eq!(j["status"], "minimized", "{j}");
    assert_eq!(j["evidence_session"], json!(id), "{j}");
    assert_eq!(j["exit"], PROVEN, "{j}");
}

#[test]
fn sighup_mid_run_cancels_the_same_way() {
    signal_mid_run("HUP");
}

/// `--all` on the slow demo: SIGTERM cancels the queue; the running item ends cancelled
/// and its line says so with its `exit`.
#[test]
fn sigterm_cancels_a_minimize_all_queue() {
    let env = slow_env();
    checkout_session(&env);
    let mut child = env.spawn_whittle(&["minimize", "--all", "--max-replays", "120", "--json"]);
    let ev = env.wait_for_first_attempt(&mut child);
    send("TERM", child.id());
    let (out, _) = wait_with_limit(child, Duration::from_secs(15));
    assert_exit(&out, CANCELLED);
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["exit"], CANCELLED, "{}", lines[0]);
    assert_eq!(
        lines[0]["state"]["summary"]["status"], "cancelled",
        "{}",
        lines[0]
    );
    assert_eq!(meta_status(&ev), "failed");
    assert!(ev.join("logcat.txt").is_file());
}

/// `verify` replays a bundle N times: SIGTERM drops the replay in flight, shuts the
/// servers down and exits cancelled.
#[test]
fn sigterm_cancels_a_verify() {
    let env = slow_env();
    checkout_session(&env);
    let evidence = evidence_of(&env.minimize_json(CHECKOUT, "120", &[]));
    let out_dir = env.dir.path().join("bundles");
    std::fs::create_dir_all(&out_dir).unwrap();
    assert_exit(&env.export(&evidence, &out_dir, "ticket"), PROVEN);
    let bundle = out_dir.join("ticket");
    let mut child = env.spawn_whittle(&["verify", bundle.to_str().unwrap(), "--runs", "200"]);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "verify still replaying"
    );
    send("TERM", child.id());
    let (out, took) = wait_with_limit(child, Duration::from_secs(15));
    assert_exit(&out, CANCELLED);
    assert!(took < Duration::from_secs(5), "exit took {took:?}");
    assert!(stderr(&out).contains("cancelled after"), "{}", stderr(&out));
    wait_for_orphans_to_exit(env.dir.path());
}

/// `import --record` replays the flow once: SIGTERM stops it, exit cancelled.
#[test]
fn sigterm_cancels_an_import_record() {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 300, "action_ms": 400});
    let env = Env::with_model(m);
    let flow = env.dir.path().join("browse.yaml");
    let there_and_back = format!("- tapOn:\n    id: \"{PKG}:id/btn_search\"\n- back\n");
    std::fs::write(
        &flow,
        format!(
            "appId: {PKG}\n---\n- launchApp\n{}",
            there_and_back.repeat(6)
        ),
    )
    .unwrap();
    let mut child = env.spawn_whittle(&[
        "import",
        "maestro",
        flow.to_str().unwrap(),
        "--record",
        "--json",
    ]);
    // The recording's evidence session exists once the replay is under way.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !has_recording(&env.workspace) {
        assert!(child.try_wait().unwrap().is_none(), "import ended early");
        assert!(Instant::now() < deadline, "no recording within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    send("TERM", child.id());
    let (out, _) = wait_with_limit(child, Duration::from_secs(15));
    assert_exit(&out, CANCELLED);
    let j = json_out(&out);
    assert_eq!(j["exit"], CANCELLED, "{j}");
    wait_for_orphans_to_exit(env.dir.path());
}

/// An evidence session of a recording (`…_record-…`) under the workspace.
fn has_recording(workspace: &Path) -> bool {
    std::fs::read_dir(workspace.join("sessions"))
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().contains("record"))
        })
        .unwrap_or(false)
}

/// `whittle mcp` under SIGTERM: its running minimize is cancelled and finishes its
/// evidence before the process exits (cancelled).
#[test]
fn sigterm_to_whittle_mcp_cancels_its_runs_and_finishes_their_evidence() {
    let env = slow_env();
    checkout_session(&env);
    // Its answers and logs go to files: nothing here reads them while it runs.
    let log = env.dir.path().join("mcp.log");
    let mut child = env
        .command(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("spawn whittle mcp");
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "signals-test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "minimize", "arguments": {"session": CHECKOUT, "max_replays": 120}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let ev = env.wait_for_first_attempt(&mut child);
    send("TERM", child.id());
    // stdin stays open: the signal alone ends it.
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let logs = std::fs::read_to_string(&log).unwrap_or_default();
            panic!("whittle mcp still running 20 s after SIGTERM:\n{logs}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = signalled.elapsed();
    drop(stdin);
    let logs = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(status.code(), Some(CANCELLED), "{logs}");
    assert!(took < Duration::from_secs(10), "exit took {took:?}");
    assert_eq!(meta_status(&ev), "failed", "finalized before the exit");
    assert!(ev.join("logcat.txt").is_file(), "the capture was saved");
    let result = read_json(&ev.join("result.json"));
    assert_eq!(result["status"], "cancelled", "{result}");
    wait_for_orphans_to_exit(env.dir.path());
}

/// Each outcome its own code, and `--json` carries it: proven, unproven, not
/// reproduced, refused.
#[test]
fn each_run_outcome_has_its_own_exit_code_in_the_process_and_the_json() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let check = |out: &Output, code: i32, status: &str| {
        assert_exit(out, code);
        let j = json_out(out);
        assert_eq!(j["exit"], code, "{j}");
        assert_eq!(j["status"], status, "{j}");
    };
    check(
        &env.minimize(CHECKOUT, "120", &["--json"]),
        PROVEN,
        "minimized",
    );
    check(
        &env.minimize(CHECKOUT, "5", &["--json"]),
        UNPROVEN,
        "unproven",
    );
    check(
        &env.minimize(CHECKOUT, "0", &["--json"]),
        REFUSED,
        "refused",
    );

    // The app no longer crashes (the bug was fixed): not reproduced.
    let mut fixed = model();
    fixed["crashes"] = json!([]);
    let env = Env::with_model(fixed);
    checkout_session(&env);
    check(
        &env.minimize(CHECKOUT, "30", &["--json"]),
        NOT_REPRODUCED,
        "not_reproduced",
    );
}

/// `whittle doctor` exits as `minimize` does on the same problem: a server that does
/// not start is a failure (4) in both, and `--json` says so.
#[test]
fn doctor_and_minimize_give_a_server_that_does_not_start_the_same_code() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let missing = env.dir.path().join("no-such-server");
    env.edit_config(|config| {
        config["mcpServers"]["sim"]["command"] = json!(missing);
    });
    let doctor = env.whittle(&["doctor", "--json"]);
    let minimize = env.whittle(&["minimize", CHECKOUT, "--json"]);
    assert_exit(&doctor, 4);
    assert_exit(&minimize, 4);
    assert_eq!(json_out(&doctor)["exit"], 4);
    assert_eq!(json_out(&minimize)["exit"], 4);
}

/// `whittle --help` and every subcommand's help end with the one table.
#[test]
fn every_help_ends_with_the_exit_code_table() {
    let env = Env::fast(&[]);
    let rows = [
        "  0  proven ",
        "  1  unproven ",
        "  2  not reproduced ",
        "  3  refused ",
        "  4  failed ",
        "  5  cancelled ",
        "  6  stopped ",
    ];
    let mut helps = vec![vec!["--help"], vec!["-h"]];
    for sub in [
        "minimize", "sessions", "analyze", "doctor", "export", "verify", "bench", "import", "mcp",
        "approve", "runs",
    ] {
        helps.push(vec![sub, "--help"]);
    }
    for args in helps {
        let out = env.command(&args).env("LANG", "C.UTF-8").output().unwrap();
        assert_exit(&out, 0);
        let text = stdout(&out);
        assert!(text.contains("Exit codes"), "{args:?}: {text}");
        for row in rows {
            assert!(text.contains(row), "{args:?} lacks {row:?}: {text}");
        }
        assert!(text.contains("SIGTERM"), "{args:?}: {text}");
    }
    // In the language of LANG, as the report is.
    let out = env
        .command(&["minimize", "--help"])
        .env("LANG", "zh_CN.UTF-8")
        .output()
        .unwrap();
    assert!(stdout(&out).contains("退出码"), "{}", stdout(&out));
}
