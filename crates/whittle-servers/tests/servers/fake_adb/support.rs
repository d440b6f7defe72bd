//! Shared by the `adb_*` tests: a canned-response folder for `fake-adb`, and
//! `whittle-servers adb --adb <fake-adb>` started as a real stdio MCP server.

use std::path::PathBuf;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

pub const DEV: &str = "emulator-5554";
pub const PKG: &str = "com.example.shop";

pub struct FakeAdb {
    pub dir: tempfile::TempDir,
    pub log: PathBuf,
    responses: Vec<Value>,
}

impl FakeAdb {
    pub fn new() -> FakeAdb {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("calls.jsonl");
        let fake = FakeAdb {
            dir,
            log,
            responses: Vec::new(),
        };
        fake.save();
        fake
    }

    fn save(&self) {
        let path = self.dir.path().join("responses.json");
        std::fs::write(path, serde_json::to_vec_pretty(&self.responses).unwrap()).unwrap();
    }

    /// Canned replies for one argv (the n-th call gets the n-th reply; the last repeats).
    pub fn on(&mut self, argv: &[&str], replies: Vec<Value>) {
        self.responses
            .push(json!({"argv": argv, "replies": replies}));
        self.save();
    }

    /// As `on`, for `adb -s DEV <args>`.
    pub fn on_dev(&mut self, args: &[&str], replies: Vec<Value>) {
        let mut argv = vec!["-s", DEV];
        argv.extend_from_slice(args);
        self.on(&argv, replies);
    }

    pub fn file(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.dir.path().join(name), bytes).unwrap();
    }

    /// Every argv fake-adb was called with, in order.
    pub fn calls(&self) -> Vec<Vec<String>> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The calls after `adb -s DEV`, as word lists.
    pub fn dev_calls(&self) -> Vec<Vec<String>> {
        self.calls()
            .into_iter()
            .map(|c| {
                assert_eq!(&c[..2], ["-s", DEV], "every device call names the device");
                c[2..].to_vec()
            })
            .collect()
    }

    /// A screen with an e-mail field, a button and a hidden button; dumps succeed.
    pub fn screen(&mut self, xml: &str) {
        self.on_dev(
            &["shell", "uiautomator", "dump", "/sdcard/window_dump.xml"],
            vec![json!({"stdout": "UI hierchary dumped to: /sdcard/window_dump.xml\n"})],
        );
        self.on_dev(
            &["exec-out", "cat", "/sdcard/window_dump.xml"],
            vec![json!({"stdout": xml})],
        );
    }

    pub async fn start(&self, extra: &[&str]) -> RunningService<RoleClient, ()> {
        let mut args: Vec<String> = vec![
            "adb".into(),
            "--adb".into(),
            env!("CARGO_BIN_EXE_fake-adb").into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let (transport, _stderr) = TokioChildProcess::builder(
            tokio::process::Command::new(env!("CARGO_BIN_EXE_whittle-servers")).configure(|c| {
                c.args(&args)
                    .env("FAKE_ADB_DIR", self.dir.path())
                    .env("FAKE_ADB_LOG", &self.log)
                    .env("RUST_LOG", "warn");
            }),
        )
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .unwrap();
        ().serve(transport).await.unwrap()
    }
}

pub const SCREEN: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.shop" content-desc="" password="false" focused="false" bounds="[0,0][1080,1920]"><node index="0" text="" resource-id="com.example.shop:id/email" class="android.widget.EditText" package="com.example.shop" content-desc="E-mail" password="false" focused="false" bounds="[40,400][1040,520]"/><node index="1" text="Checkout" resource-id="com.example.shop:id/btn_checkout" class="android.widget.Button" package="com.example.shop" content-desc="" password="false" focused="false" bounds="[100,1000][501,1201]"/><node index="2" text="Secret" resource-id="com.example.shop:id/hidden" class="android.widget.Button" package="com.example.shop" content-desc="" password="false" focused="false" bounds="[0,0][0,0]"/></node></hierarchy>"#;

/// The tap that focuses SCREEN's e-mail field (the centre of its bounds).
pub const TAP_EMAIL: [&str; 5] = ["shell", "input", "tap", "540", "460"];

/// `input_text` arguments typing `text` into SCREEN's e-mail field.
pub fn into_email(text: &str) -> Value {
    json!({"device": DEV, "strategies": [{"by": "identifier", "value": "com.example.shop:id/email"}], "text": text})
}

pub async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .unwrap()
}

/// `call` that must succeed: its structured result.
pub async fn call_ok(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> Value {
    ok(&call(client, tool, args).await)
}

/// `call` that must fail: its message.
pub async fn call_err(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> String {
    err(&call(client, tool, args).await)
}

/// The structured result of a successful call (and its text block says the same).
pub fn ok(r: &CallToolResult) -> Value {
    assert_ne!(r.is_error, Some(true), "tool failed: {r:?}");
    let v = r.structured_content.clone().expect("structuredContent");
    let text = r.content[0].as_text().expect("text block").text.clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    v
}

/// The message of a failed call.
pub fn err(r: &CallToolResult) -> String {
    assert_eq!(r.is_error, Some(true), "expected a tool error: {r:?}");
    r.content[0].as_text().expect("text block").text.clone()
}

pub fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}
