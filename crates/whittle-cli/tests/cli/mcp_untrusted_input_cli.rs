//! `whittle mcp` against hostile input and at the loudest log level, spoken to line by
//! line over stdio as any client speaks JSON-RPC (no SDK: a message nested 100,000 deep
//! is sent as bytes, which an SDK could not even serialize).
//!
//! - A flow nested past the limit aborted `whittle mcp` (a stack overflow on the tokio
//!   worker importing it, with every run in the process): now it is a typed refusal
//!   and the next call is served.
//! - At `RUST_LOG=trace` rmcp logged every JSON-RPC message whole (an import's private
//!   values, a replay's typed text): no private value may reach stderr at any level.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use crate::common::*;
use crate::mcp_cli::demo_copy;
use serde_json::{json, Value};

/// `whittle --config CONFIG mcp` with its stderr in a file, spoken to one line at a time.
struct RawMcp {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: tempfile::NamedTempFile,
    next_id: u64,
}

impl RawMcp {
    fn start(config: &Path, lease_dir: &Path, rust_log: &str) -> RawMcp {
        let stderr = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_whittle"))
            .arg("--config")
            .arg(config)
            .arg("mcp")
            .env(whittle_service::device_lease::LEASE_DIR_ENV, lease_dir)
            .env("RUST_LOG", rust_log)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.reopen().unwrap())
            .spawn()
            .expect("spawn whittle mcp");
        let stdin = child.stdin.take().unwrap();
        let lines = read_lines(child.stdout.take().unwrap());
        let mut mcp = RawMcp {
            child,
            stdin,
            lines,
            stderr,
            next_id: 0,
        };
        let hello = mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw-test-client", "version": "1"}}),
        );
        assert_eq!(hello["result"]["serverInfo"]["name"], "whittle", "{hello}");
        mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        mcp
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The answer to the request with `id`; notifications in between are passed over.
    fn answer_to(&mut self, id: u64, within: Duration) -> Option<Value> {
        let deadline = std::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self.lines.recv_timeout(left).ok()?;
            let message: Value = serde_json::from_str(&line).expect("stdout is JSON-RPC only");
            if message["id"] == id {
                return Some(message);
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        self.answer_to(id, Duration::from_secs(120))
            .unwrap_or_else(|| panic!("no answer to {method}\nstderr: {}", self.stderr()))
    }

    /// A tool call's result (`isError` set on a refusal).
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{tool}: {answer}\nstderr: {}", self.stderr()))
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.stderr.path()).unwrap_or_default()
    }

    /// Closes stdin (the end of the session) and waits for the exit.
    fn finish(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        let stderr = std::fs::read_to_string(self.stderr.path()).unwrap_or_default();
        (status, stderr)
    }
}

fn read_lines(stdout: ChildStdout) -> Receiver<String> {
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

fn refusal(result: &Value) -> (String, String) {
    assert_eq!(result["isError"], true, "{result}");
    let failure = &result["structuredContent"];
    (
        failure["status"].as_str().unwrap_or_default().to_owned(),
        failure["error"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn a_flow_nested_past_the_limit_is_refused_typed_and_the_next_call_is_served() {
    let env = Env::fast(&[]);
    let mut mcp = RawMcp::start(&env.config, &env.lease_dir(), "warn");
    let import = |mcp: &mut RawMcp, format: &str, name: &str, text: &str| {
        let file = env.dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        mcp.call("import", json!({"format": format, "file": file}))
    };

    // 1,000 nested block mappings under a tap: the 64th `below:` opens level 65.
    let mut block = String::from("appId: com.example.shop\n---\n- tapOn:\n");
    for level in 0..1_000 {
        block.push_str(&format!("{}below:\n", " ".repeat(4 + level)));
    }
    block.push_str(&format!("{}x\n", " ".repeat(1_004)));
    let (status, error) = refusal(&import(&mut mcp, "maestro", "block.yaml", &block));
    assert_eq!(status, "refused");
    assert!(
        error.contains("block.yaml line 66") && error.contains("deeper than 64 levels"),
        "{error}"
    );
    // 100,000 levels in flow style, and as block sequences on one line.
    for (name, deep) in [
        (
            "flow.yaml",
            format!("- tapOn: {}x\n", "{below: ".repeat(100_000)),
        ),
        ("dashes.yaml", format!("- {}x\n", "- ".repeat(100_000))),
    ] {
        let flow = format!("appId: com.example.shop\n---\n- back\n{deep}");
        let (status, error) = refusal(&import(&mut mcp, "maestro", name, &flow));
        assert_eq!(status, "refused");
        assert!(
            error.contains(&format!("{name} line 4")) && error.contains("deeper than 64"),
            "{error}"
        );
    }
    let robo = format!(
        "[{{\"eventType\": \"PRESSED_BACK\",\n \"contextDescriptor\": {}1{}}}]",
        "{\"a\": ".repeat(100_000),
        "}".repeat(100_000)
    );
    let (_, error) = refusal(&import(&mut mcp, "robo", "deep.json", &robo));
    assert!(
        error.contains("deep.json line 2") && error.contains("deeper than 64"),
        "{error}"
    );

    // A JSON-RPC message nested past serde_json's limit is not JSON-RPC to rmcp: no
    // answer, and the server goes on. One just inside the limit is answered.
    mcp.send(&format!(
        "{{\"jsonrpc\": \"2.0\", \"id\": 900, \"method\": \"tools/call\", \"params\": {{\"name\": \"sessions\", \"arguments\": {{\"x\": {}1{}}}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    ));
    assert_eq!(mcp.answer_to(900, Duration::from_secs(2)), None);
    mcp.send(&format!(
        "{{\"jsonrpc\": \"2.0\", \"id\": 901, \"method\": \"tools/call\", \"params\": {{\"name\": \"sessions\", \"arguments\": {{\"x\": {}1{}}}}}}}",
        "[".repeat(120),
        "]".repeat(120)
    ));
    let near_limit = mcp
        .answer_to(901, Duration::from_secs(60))
        .expect("a message 124 levels deep is answered");
    assert!(
        near_limit.get("result").is_some() || near_limit.get("error").is_some(),
        "{near_limit}"
    );

    // Still serving: the workspace is listed, and a flow of the right shape imports.
    let sessions = mcp.call("sessions", json!({}));
    assert_ne!(sessions["isError"], true, "{sessions}");
    let fine = import(
        &mut mcp,
        "maestro",
        "fine.yaml",
        "appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    id: btn_search\n- back\n",
    );
    assert_ne!(fine["isError"], true, "{fine}");
    assert_eq!(fine["structuredContent"]["replayable"], 2, "{fine}");
    let (status, stderr) = mcp.finish();
    assert!(status.success(), "{status}\n{stderr}");
    assert!(!stderr.contains("overflow"), "{stderr}");
}

#[test]
fn no_private_value_reaches_the_log_of_whittle_mcp_at_trace() {
    let root = tempfile::tempdir().unwrap();
    let demo = demo_copy(root.path());
    let mut mcp = RawMcp::start(
        &demo.join("whittle.json"),
        &root.path().join("device-leases"),
        "trace",
    );
    // Typed into a password field; a value marked private, typed into a plain one; and a
    // variable's value given on the call.
    let flow = root.path().join("login.yaml");
    std::fs::write(
        &flow,
        "appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    id: password_field\n\
         - inputText: S3cret-Marker-9876\n- tapOn:\n    id: search_box\n\
         - inputText: Priv-Marker-5555\n- inputText: ${CODE}\n- back\n",
    )
    .unwrap();
    let imported = mcp.call(
        "import",
        json!({"format": "maestro", "file": flow, "private_values": ["Priv-Marker-5555"],
               "variables": {"CODE": "Var-Marker-7777"}}),
    );
    assert_ne!(imported["isError"], true, "{imported}");
    // A replay types `espresso` into the search box (a typed value, sent to the device),
    // and the leaky session's recorder kept a redacted password's value.
    for session in [
        "2026-05-14_160354_checkout-npe",
        "2026-05-17_080000_leaky-login",
    ] {
        let run = mcp.call("minimize", json!({"session": session, "max_replays": 30}));
        assert_ne!(run["isError"], true, "{run}");
    }
    let (status, stderr) = mcp.finish();
    assert!(status.success(), "{status}");
    // The logs really were on, down to the calls that type.
    assert!(
        stderr.contains("tool call") && stderr.contains("input_text"),
        "trace logs were not on:\n{}",
        &stderr[..stderr.len().min(2_000)]
    );
    for private in [
        "S3cret-Marker-9876",
        "Priv-Marker-5555",
        "Var-Marker-7777",
        "espresso",
        SECRET_PASSWORD,
    ] {
        let at = stderr.find(private).map(|i| {
            let bytes = stderr.as_bytes();
            String::from_utf8_lossy(&bytes[i.saturating_sub(300)..(i + 100).min(bytes.len())])
                .into_owned()
        });
        assert_eq!(at, None, "{private:?} reached the log");
    }
}
