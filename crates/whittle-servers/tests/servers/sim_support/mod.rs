//! Shared by the `sim_*` tests: spawns `whittle-servers sim` as a real stdio MCP server
//! and calls its tools.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientRequest, Request};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

pub const PKG: &str = "com.example.test";

/// A small app exercising every trigger and condition kind.
pub fn test_model() -> Value {
    let stack = |exc: &str| {
        format!(
            "FATAL EXCEPTION: main\nProcess: com.example.test, PID: 1111\n{exc}\n\
             \tat com.example.test.MainActivity.lambda$onCreate$0(MainActivity.kt:10)\n\
             \tat com.example.test.MainActivity$$ExternalSyntheticLambda0.onClick(Unknown Source:0)\n\
             \tat android.view.View.performClick(View.java:7659)"
        )
    };
    json!({
      "package": PKG, "version": {"name": "1.0", "code": 1},
      "launch": {"screen": "home", "anchor": "t:id/root"},
      "state": {"n": 0, "flag": false, "email": ""},
      "screen_size": [400, 800],
      "screens": {
        "home": {"back": "exit", "elements": [
          {"id": "t:id/root", "class": "android.widget.TextView", "text": "Home", "bounds": [0, 80, 400, 160]},
          {"id": "t:id/inc", "class": "android.widget.Button", "text": "Add", "bounds": [20, 200, 380, 280], "tap": {"incr": {"n": 1}}},
          {"id": "t:id/boom", "class": "android.widget.Button", "text": "Boom", "desc": "boom button", "bounds": [20, 300, 380, 380]},
          {"id": "t:id/next", "class": "android.widget.Button", "text": "Next", "bounds": [20, 400, 380, 480], "tap": {"goto": "form"}},
          {"id": "t:id/late", "class": "android.widget.Button", "text": "Late", "bounds": [20, 500, 380, 580]},
          {"id": "t:id/flaky", "class": "android.widget.Button", "text": "Flaky", "bounds": [20, 600, 380, 680]},
          {"id": "t:id/hidden", "class": "android.widget.Button", "text": "Hidden", "bounds": [20, 700, 380, 780], "visible": false}
        ]},
        "form": {"back": "home", "elements": [
          {"id": "t:id/email", "class": "android.widget.EditText", "text": "", "bounds": [20, 100, 380, 180], "input": {"set": {"email": "$text"}}},
          {"id": "t:id/pin", "class": "android.widget.EditText", "text": "", "bounds": [20, 200, 380, 280], "password": true},
          {"id": "t:id/label", "class": "android.widget.TextView", "text": "n=$n", "bounds": [20, 300, 380, 380]}
        ]}
      },
      "crashes": [
        {"name": "boom", "kind": "java", "on": {"screen": "home", "tap": "t:id/boom"},
         "when": {"n": {">=": 2}, "flag": false}, "stack": stack("java.lang.IllegalStateException: boom")},
        {"name": "late", "kind": "java", "on": {"screen": "home", "tap": "t:id/late"},
         "when": {"n": {"<": 1}}, "delay_ms": 300, "stack": stack("java.lang.RuntimeException: late")},
        {"name": "flaky", "kind": "java", "on": {"screen": "home", "tap": "t:id/flaky"},
         "probability": 0.6, "stack": stack("java.lang.ArithmeticException: divide by zero")},
        {"name": "typed", "kind": "java", "on": {"screen": "form", "input": "t:id/email"},
         "when": {"n": 3}, "stack": stack("java.lang.NumberFormatException: typed")},
        {"name": "back-anr", "kind": "anr", "on": {"screen": "form", "back": true},
         "when": {"email": {"!=": ""}}, "process": "com.example.test:ui",
         "stack": "ANR in com.example.test\nPID: 1111\nReason: Input dispatching timed out\n\"main\" prio=5 tid=1 Sleeping\n  | sysTid=1111 obj=0x72a4c6f8\n  at com.example.test.Form.onBack(Form.kt:5)"}
      ],
      "timing": {"launch_ms": 0, "action_ms": 0}
    })
}

pub struct Sim {
    pub client: RunningService<RoleClient, ()>,
    pub dir: tempfile::TempDir,
}

impl Sim {
    /// Starts the simulator on `model` with extra CLI arguments.
    pub async fn start(model: &Value, extra: &[&str]) -> Sim {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.json");
        std::fs::write(&path, serde_json::to_string_pretty(model).unwrap()).unwrap();
        let client = Self::spawn(&path, extra).await;
        Sim { client, dir }
    }

    pub async fn spawn(model: &Path, extra: &[&str]) -> RunningService<RoleClient, ()> {
        let mut args: Vec<String> =
            vec!["sim".into(), "--model".into(), model.display().to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let (transport, _stderr) = TokioChildProcess::builder(
            tokio::process::Command::new(env!("CARGO_BIN_EXE_whittle-servers")).configure(|c| {
                c.args(&args);
            }),
        )
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
        ().serve(transport).await.unwrap()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub async fn raw(&self, tool: &str, args: Value) -> Result<CallToolResult, ServiceError> {
        let Value::Object(map) = args else {
            panic!("arguments must be an object")
        };
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
            .await
    }

    /// Calls with a timeout, for the hang fault.
    pub async fn call_with_timeout(
        &self,
        tool: &str,
        args: Value,
        timeout: Duration,
    ) -> Result<CallToolResult, ServiceError> {
        let Value::Object(map) = args else {
            panic!("arguments must be an object")
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(map);
        let handle = self
            .client
            .send_request_with_option(
                ClientRequest::CallToolRequest(Request::new(params)),
                PeerRequestOptions::with_timeout(timeout),
            )
            .await?;
        handle.await_response().await.map(|r| match r {
            rmcp::model::ServerResult::CallToolResult(r) => r,
            other => panic!("unexpected response {other:?}"),
        })
    }

    /// A successful call's JSON; checks the text block carries the same JSON.
    pub async fn call(&self, tool: &str, args: Value) -> Value {
        let r = self.raw(tool, args).await.unwrap();
        assert_ne!(r.is_error, Some(true), "{tool} failed: {:?}", r.content);
        let structured = r.structured_content.clone().expect("structuredContent");
        let text = r.content[0].as_text().expect("one text block").text.clone();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
        structured
    }

    /// A call that must fail as a tool error; returns its message.
    pub async fn call_err(&self, tool: &str, args: Value) -> String {
        let r = self.raw(tool, args).await.unwrap();
        assert_eq!(
            r.is_error,
            Some(true),
            "{tool} unexpectedly succeeded: {r:?}"
        );
        r.content[0].as_text().unwrap().text.clone()
    }

    pub async fn launch(&self, device: &str) -> Value {
        self.call(
            "mobile_launch_app",
            json!({"device": device, "packageName": PKG}),
        )
        .await
    }

    pub async fn terminate(&self, device: &str) {
        self.call(
            "mobile_terminate_app",
            json!({"device": device, "packageName": PKG}),
        )
        .await;
    }

    pub async fn tap(&self, device: &str, id: &str) -> Value {
        self.call(
            "tap_element",
            json!({"device": device, "strategies": [{"by": "identifier", "value": id}], "settle_ms": 0}),
        )
        .await
    }

    pub async fn input(&self, device: &str, id: &str, text: &str) -> Value {
        self.call(
            "input_text",
            json!({"device": device, "strategies": [{"by": "identifier", "value": id}], "text": text}),
        )
        .await
    }

    pub async fn back(&self, device: &str) -> Value {
        self.call(
            "mobile_press_button",
            json!({"device": device, "button": "BACK"}),
        )
        .await
    }

    pub async fn crashes(&self, device: &str) -> Vec<Value> {
        let r = self
            .call("get_recent_crashes", json!({"device": device}))
            .await;
        let list = r["crashes"].as_array().unwrap().clone();
        assert_eq!(r["count"].as_u64().unwrap() as usize, list.len());
        list
    }

    /// `start_capture` of `device`'s log into `dir` for `session_id`.
    pub async fn start_capture(&self, session_id: &str, dir: &Path, device: &str) -> Value {
        self.call(
            "start_capture",
            json!({"session_id": session_id, "session_dir": dir, "device": device}),
        )
        .await
    }

    /// Whether the test model's flaky rule crashed, for `launches` fresh runs on sim-1.
    pub async fn flaky_outcomes(&self, launches: usize) -> Vec<bool> {
        let mut seen = Vec::with_capacity(launches);
        for _ in 0..launches {
            self.terminate("sim-1").await;
            self.clear("sim-1").await;
            self.launch("sim-1").await;
            self.tap("sim-1", "t:id/flaky").await;
            seen.push(!self.crashes("sim-1").await.is_empty());
        }
        seen
    }

    pub async fn clear(&self, device: &str) {
        self.call("clear_logs", json!({"device": device})).await;
    }
}
