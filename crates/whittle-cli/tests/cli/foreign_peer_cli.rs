//! `whittle minimize` against servers we did not write the way we write ours: an MCP
//! server on the official Python SDK (`tests/peers/python/`) in the mobile, ui and log
//! roles, with our report and analyzer servers. It answers the way a foreign
//! implementation does (prose like mobile-mcp, JSON in text blocks with trailing
//! whitespace, unknown keys, `ts` as epoch seconds, integer record ids): the run must
//! succeed and say what it tolerated; a broken verdict field must fail it, naming the
//! server, the tool and the field.
//!
//! The peer needs the venv `scripts/setup` builds at `.venv-peers/` (or a Python with
//! `mcp` installed named by WHITTLE_PEER_PYTHON). Without one these tests are skipped
//! with the reason printed — except in CI (`CI=true`), where that is a failure.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::lab_support::announced_url;
use common::*;
use serde_json::{json, Value};

const PEER_PKG: &str = "com.example.notes";
const PEER_DEVICE: &str = "emulator-5554";
const SESSION: &str = "2026-05-15_093000_notes-theme-crash";

/// A test env whose mobile, ui and log roles are the Python peer instead of the simulator.
struct PeerEnv {
    env: Env,
    /// The peer serving streamable HTTP, when it is reached by URL; killed on drop.
    http: Option<Child>,
}

impl Drop for PeerEnv {
    fn drop(&mut self) {
        if let Some(child) = self.http.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl PeerEnv {
    /// Our report+analyzer servers, the Python peer in mobile/ui/log; `broken` names a
    /// verdict field the peer breaks on purpose.
    fn new(python: &Path, broken: Option<&str>) -> PeerEnv {
        let env = broken.map(|field| json!({ "WHITTLE_PEER_BREAK": field }));
        PeerEnv::over_stdio(python, env)
    }

    /// The peer in its extended mode: the published contract plus the optional tools
    /// Whittle gained since (`long_press_element`).
    fn extended(python: &Path) -> PeerEnv {
        PeerEnv::over_stdio(python, Some(json!({ "WHITTLE_PEER_MODE": "extended" })))
    }

    fn over_stdio(python: &Path, env: Option<Value>) -> PeerEnv {
        let script = repo_root().join("tests/peers/python/whittle_peer.py");
        let mut peer = json!({"command": python, "args": [script]});
        if let Some(env) = env {
            peer["env"] = env;
        }
        PeerEnv::with_peer(peer, None)
    }

    /// The same, the peer serving MCP streamable HTTP through the SDK's own session
    /// manager under uvicorn (SSE answers, or JSON ones), reached by URL; `keep_alive`
    /// is the server's setting, `None` leaving it unset as a user does.
    fn over_http(python: &Path, json_response: bool, keep_alive: Option<bool>) -> PeerEnv {
        let mut command = Command::new(python);
        command
            .arg(repo_root().join("tests/peers/python/whittle_peer.py"))
            .arg("--http");
        if json_response {
            command.arg("--json-response");
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the Python peer starts");
        let url = announced_url(&mut child, "listening on ");
        let mut peer = json!({ "url": url });
        if let Some(keep_alive) = keep_alive {
            peer["keep_alive"] = json!(keep_alive);
        }
        PeerEnv::with_peer(peer, Some(child))
    }

    fn with_peer(peer: Value, http: Option<Child>) -> PeerEnv {
        let env = Env::fast(&[]);
        env.edit_config(|config| {
            let servers = config["mcpServers"].as_object_mut().unwrap();
            servers.remove("sim");
            servers.insert("peer".into(), peer);
            for role in ["mobile", "ui", "log"] {
                config["roles"][role] = json!("peer");
            }
        });
        let env = PeerEnv { env, http };
        env.write_session();
        env
    }

    /// Nine recorded steps; the crash needs settings → dark theme → back → new note →
    /// save (steps 3, 5, 6, 7, 9); the sync tap, the about tap and the typed note do not.
    fn write_session(&self) {
        self.write_session_with(false);
    }

    /// [`PeerEnv::write_session`]; with `long_press_about`, step 4 (the about button,
    /// which the crash does not need) is a long press instead of a tap.
    fn write_session_with(&self, long_press_about: bool) {
        let dir = self.env.session_dir(SESSION);
        std::fs::create_dir_all(&dir).unwrap();
        let meta = json!({"session_id": SESSION, "name": "notes", "created_at": "2026-05-15T09:30:00Z",
            "status": "failed", "platform": "android", "package": PEER_PKG, "device_id": PEER_DEVICE,
            "extra": {}});
        std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
        let id = |name: &str| format!("{PEER_PKG}:id/{name}");
        let replays = [
            json!({"action_type": "launch", "element_key": id("home_root")}),
            json!({"action_type": "tap", "element_key": id("btn_sync")}),
            json!({"action_type": "tap", "element_key": id("btn_settings")}),
            json!({"action_type": if long_press_about { "long_press" } else { "tap" },
                "element_key": id("btn_about")}),
            json!({"action_type": "tap", "element_key": id("btn_theme")}),
            json!({"action_type": "press_button", "button": "BACK"}),
            // By text: the peer's own node says "New note " (a real dump's trailing space).
            json!({"action_type": "tap", "element_key": "text:New note"}),
            json!({"action_type": "input_text", "element_key": id("note_text"), "input_value": "groceries"}),
            json!({"action_type": "tap", "element_key": id("btn_save")}),
        ];
        let steps: Vec<String> = replays
            .iter()
            .enumerate()
            .map(|(i, replay)| {
                json!({"index": i + 1, "ts": "2026-05-15T09:30:00Z",
                    "action": replay["action_type"], "result": "ok",
                    "notes": json!({"replay": replay}).to_string()})
                .to_string()
            })
            .collect();
        std::fs::write(dir.join("steps.jsonl"), steps.join("\n") + "\n").unwrap();
        let crash = json!({"crash_id": "c1", "ts": "2026-05-15T09:31:00Z", "kind": "java",
            "process": PEER_PKG, "stack": peer_stack(), "step_index": 9, "repro_path": (1..=9).collect::<Vec<_>>()});
        std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();
    }

    fn minimize(&self) -> Output {
        self.env
            .whittle(&["minimize", SESSION, "--max-replays", "60", "--json"])
    }

    /// [`PeerEnv::minimize`], logging how the client chose each `url` server's
    /// connections (on stderr).
    fn minimize_logging_connections(&self) -> Output {
        self.env
            .command(&["minimize", SESSION, "--max-replays", "60", "--json"])
            .env("RUST_LOG", "warn,whittle_service::client::start=debug")
            .output()
            .expect("run whittle")
    }

    fn evidence_dir(&self) -> PathBuf {
        let mut dirs = self.env.evidence_dirs();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        dirs.pop().unwrap()
    }
}

/// The stack the session recorded: the peer's crash as a device logged it on the day
/// (the peer answers it with other line numbers, as another build would).
fn peer_stack() -> String {
    format!(
        "FATAL EXCEPTION: main\nProcess: {PEER_PKG}, PID: 31337\n\
         java.lang.IllegalStateException: theme not applied\n\
         \tat com.example.notes.EditorActivity.onSave(EditorActivity.kt:91)\n\
         \tat com.example.notes.EditorActivity.onClick(EditorActivity.kt:40)\n\
         \tat android.view.View.performClick(View.java:7448)\n"
    )
}

/// The decode warnings of a `--json` summary (typed records), in the English they are
/// worded in; every other warning is left out.
fn warnings(j: &Value) -> Vec<String> {
    j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["source"] == "decode")
        .map(|w| {
            serde_json::from_value::<whittle_service::api::ResultWarning>(w.clone())
                .expect("a typed warning")
                .to_string()
        })
        .collect()
}

fn warning_of<'a>(all: &'a [String], tool: &str) -> &'a str {
    all.iter()
        .find(|w| {
            w.starts_with("peer server (role ")
                && w.contains(&format!(" tool {tool} answered outside"))
        })
        .unwrap_or_else(|| panic!("no decode warning for {tool} in {all:#?}"))
}

/// The same foreign server over MCP streamable HTTP, SSE and JSON answers alike, its
/// `keep_alive` unset as a user leaves it: the run reaches the result it reaches over
/// stdio, on a connection per call, chosen from the name the server announced (a
/// kept-alive connection would wait 40 ms for a delayed ACK on every call).
#[test]
fn the_python_sdk_serving_streamable_http_minimizes_alike_with_sse_and_json_answers() {
    let Some(python) = peer_python() else { return };
    for json_response in [false, true] {
        let env = PeerEnv::over_http(&python, json_response, None);
        let out = env.minimize_logging_connections();
        assert_exit(&out, 0);
        let j = json_out(&out);
        assert_eq!(
            j["status"], "minimized",
            "json answers {json_response}: {j:#}"
        );
        assert_eq!(j["minimal_path"], json!([1, 3, 5, 6, 7, 9]));
        assert_eq!(j["confidence"], "high");
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains("HTTP connections one per call: not a Whittle lab host")
                && log.contains("whittle-python-peer"),
            "{log}"
        );
    }
}

/// An explicit `keep_alive: false` is obeyed as set, and the run is the same.
#[test]
fn the_python_sdk_over_http_with_keep_alive_false_set_minimizes_alike() {
    let Some(python) = peer_python() else { return };
    let env = PeerEnv::over_http(&python, false, Some(false));
    let out = env.minimize_logging_connections();
    assert_exit(&out, 0);
    let j = json_out(&out);
    assert_eq!(j["status"], "minimized", "{j:#}");
    assert_eq!(j["minimal_path"], json!([1, 3, 5, 6, 7, 9]));
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("HTTP connections one per call: set by keep_alive in the config"),
        "{log}"
    );
}

#[test]
fn a_foreign_python_server_in_the_device_roles_minimizes_and_says_what_it_tolerated() {
    let Some(python) = peer_python() else { return };
    let env = PeerEnv::new(&python, None);
    let out = env.minimize();
    assert_exit(&out, 0);
    let j = json_out(&out);
    assert_eq!(j["status"], "minimized", "{j:#}");
    assert_eq!(j["minimal_path"], json!([1, 3, 5, 6, 7, 9]));
    assert_eq!(j["confidence"], "high");
    assert_eq!(j["final_confirmed"], true);

    // One warning per (server, tool) that needed tolerance, each naming what it was.
    let all = warnings(&j);
    let log = warning_of(&all, "get_recent_crashes");
    assert!(
        log.contains("crashes[].ts: a number where text was expected, converted")
            && log.contains("crashes[].record_id: a number where text was expected, converted")
            && log.contains("crashes[].pid: not in the contract or unusable, ignored")
            && log.contains("count: missing, default used"),
        "{log}"
    );
    assert!(warning_of(&all, "mobile_list_apps").contains("prose instead of JSON"));
    assert!(warning_of(&all, "mobile_save_screenshot").contains("read from the saved image"));
    // mobile-mcp's device list (with its `version`) is inside the contract: nothing to say.
    assert!(
        !all.iter()
            .any(|w| w.contains(" tool mobile_list_available_devices answered outside")),
        "{all:#?}"
    );
    assert!(warning_of(&all, "get_hierarchy").contains("found among 2 content blocks"));
    let decode_warnings: Vec<_> = all
        .iter()
        .filter(|w| w.contains("answered outside the tool contract"))
        .collect();
    let tools: std::collections::BTreeSet<_> = decode_warnings
        .iter()
        .map(|w| w.split(" tool ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(
        tools.len(),
        decode_warnings.len(),
        "one per tool: {decode_warnings:#?}"
    );

    // The evidence keeps them typed, and the report says them.
    let evidence = env.evidence_dir();
    let file: Value = serde_json::from_slice(
        &std::fs::read(evidence.join("decode-warnings.json")).expect("decode-warnings.json"),
    )
    .unwrap();
    let entries = file.as_array().unwrap();
    assert_eq!(entries.len(), decode_warnings.len());
    let log_entry = entries
        .iter()
        .find(|w| w["tool"] == "get_recent_crashes")
        .unwrap();
    assert_eq!(
        (&log_entry["server"], &log_entry["role"]),
        (&json!("peer"), &json!("log"))
    );
    assert!(log_entry["tolerated"]
        .as_array()
        .unwrap()
        .contains(&json!({"field": "crashes[].ts", "what": {"kind": "converted", "from": "number", "to": "string"}})));
    let report = std::fs::read_to_string(evidence.join("report.md")).unwrap();
    assert!(report.contains("Answers read leniently"), "{report}");
    assert!(report.contains("tool get_recent_crashes answered outside the tool contract"));
}

#[test]
fn a_broken_verdict_field_fails_the_run_naming_server_tool_and_field() {
    let Some(python) = peer_python() else { return };
    for (broken, tool, field, kind) in [
        ("tapped", "tap_element", "`tapped`", "tool"),
        ("stack", "get_recent_crashes", "`crashes[0].stack`", "drain"),
    ] {
        let env = PeerEnv::new(&python, Some(broken));
        let out = env.minimize();
        assert_eq!(out.status.code(), Some(4), "{broken}: {}", stdout(&out));
        let j = json_out(&out);
        assert_eq!(j["status"], "runtime_failed", "{broken}: {j:#}");
        // The typed cause: the tool that failed, with what the client found wrong.
        assert_eq!(j["cause"]["kind"], kind, "{broken}: {j:#}");
        let all = j["cause"]["detail"].as_str().unwrap_or_default();
        assert!(
            all.contains("peer server (role ")
                && all.contains(&format!(
                    "tool {tool}: the answer breaks the tool contract at field {field}"
                )),
            "{broken}: {all}"
        );
        assert_eq!(j["attempts"], 1, "the baseline ends the run: {j:#}");
    }
}

/// Our own servers answer exactly the contract: no run on them warns about decoding.
#[test]
fn our_own_servers_need_nothing_tolerated() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let j = json_out(&env.minimize(CHECKOUT, "120", &["--json"]));
    assert_eq!(j["status"], "minimized", "{j:#}");
    let all = warnings(&j);
    assert!(
        !all.iter()
            .any(|w| w.contains("answered outside the tool contract")),
        "{all:#?}"
    );
    for dir in env.evidence_dirs() {
        assert!(!dir.join("decode-warnings.json").exists());
    }
}

/// The peer's default mode serves exactly the tool contract as published (frozen:
/// `tests/peers/python/whittle_peer.py`); the tools Whittle added since are optional, so
/// a path that uses none of them minimizes on it exactly as on the peer that serves
/// them all.
#[test]
fn a_server_written_to_the_published_contract_minimizes_as_one_with_the_optional_tools() {
    let Some(python) = peer_python() else { return };
    let frozen = PeerEnv::new(&python, None);
    let extended = PeerEnv::extended(&python);
    let runs: Vec<Value> = [&frozen, &extended]
        .iter()
        .map(|env| {
            let out = env.minimize();
            assert_exit(&out, 0);
            json_out(&out)
        })
        .collect();
    for j in &runs {
        assert_eq!(j["status"], "minimized", "{j:#}");
        assert_eq!(j["minimal_path"], json!([1, 3, 5, 6, 7, 9]));
        assert_eq!(j["confidence"], "high");
    }
    // The same replays, verdict for verdict: the proof is the same.
    assert_eq!(runs[0]["attempts"], runs[1]["attempts"]);
    let proof = |env: &PeerEnv| {
        let result = read_json(&env.evidence_dir().join("result.json"));
        assert!(
            result["proof"].is_array() || result["proof"].is_object(),
            "{result:#}"
        );
        result["proof"].clone()
    };
    assert_eq!(proof(&frozen), proof(&extended));
}

/// A path with a long press needs a ui server that offers `long_press_element`: on the
/// published contract it is refused before anything runs, naming the step, the tool and
/// the servers that have it; the extended peer runs it.
#[test]
fn a_step_needing_an_optional_tool_is_refused_before_anything_runs_where_it_is_missing() {
    let Some(python) = peer_python() else { return };
    let frozen = PeerEnv::new(&python, None);
    frozen.write_session_with(true);
    let out = frozen.minimize();
    assert_exit(&out, 3);
    let j = json_out(&out);
    assert_eq!(j["status"], "refused", "{j:#}");
    assert_eq!(
        j["cause"],
        json!({"kind": "missing_tool", "step": 4, "action": "long_press",
               "tool": "long_press_element", "server": "peer", "servers_with_it": []})
    );
    let error = j["error"].as_str().unwrap();
    assert!(
        error.contains("step 4 (long_press) needs the ui tool long_press_element")
            && error.contains("no configured ui server lists it"),
        "{error}"
    );
    assert!(frozen.env.evidence_dirs().is_empty(), "nothing ran");

    let extended = PeerEnv::extended(&python);
    extended.write_session_with(true);
    let out = extended.minimize();
    assert_exit(&out, 0);
    let j = json_out(&out);
    assert_eq!(j["status"], "minimized", "{j:#}");
    assert_eq!(j["minimal_path"], json!([1, 3, 5, 6, 7, 9]));
}

/// `whittle doctor` says which optional tools each ui server lists: a server written to
/// the published contract is ready, and named as lacking `long_press_element`; ours
/// lists it.
#[test]
fn doctor_names_the_optional_tools_a_ui_server_lacks() {
    let Some(python) = peer_python() else { return };
    let ui_check = |env: &Env| {
        let out = env.whittle(&["doctor", "--json"]);
        let report = json_out(&out);
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "role" && c["subject"] == "ui")
            .cloned()
            .unwrap_or_else(|| panic!("no ui role check in {report:#}"))
    };
    let frozen = PeerEnv::new(&python, None);
    let check = ui_check(&frozen.env);
    assert_eq!(check["finding"], "role_ready_without_optional", "{check:#}");
    assert_eq!(
        check["status"], "ok",
        "a published-contract server is ready"
    );
    assert!(check["detail"]
        .as_str()
        .unwrap()
        .contains("does not list the optional long_press_element"));

    let ours = ui_check(&Env::fast(&[]));
    assert_eq!(ours["finding"], "role_ready", "{ours:#}");
    assert!(ours["detail"]
        .as_str()
        .unwrap()
        .contains("the optional long_press_element"));
}
