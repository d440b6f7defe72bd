//! Shared by the `report_*` and `analyzer_*` tests: spawns `whittle-servers` as a real
//! stdio MCP server and calls its tools.

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub struct Server {
    pub client: RunningService<RoleClient, ()>,
}

impl Server {
    /// `whittle-servers <args...>`; the server's stderr is inherited (its logs show up
    /// in the test output on failure).
    pub async fn spawn(args: &[&str]) -> Server {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (transport, _stderr) = TokioChildProcess::builder(
            tokio::process::Command::new(env!("CARGO_BIN_EXE_whittle-servers")).configure(|c| {
                // Only warnings: the server's stderr is shown with the test's output.
                c.args(&args).env("RUST_LOG", "warn");
            }),
        )
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn whittle-servers");
        let client = ().serve(transport).await.expect("MCP handshake");
        Server { client }
    }

    pub async fn tool_names(&self) -> Vec<String> {
        let tools = self.client.list_all_tools().await.expect("tools/list");
        let mut names: Vec<String> = tools.into_iter().map(|t| t.name.to_string()).collect();
        names.sort();
        names
    }

    pub async fn call_raw(&self, name: &str, args: Value) -> CallToolResult {
        let Value::Object(map) = args else {
            panic!("tool arguments must be an object")
        };
        self.client
            .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Calls a tool that must succeed; returns its structured result, after checking the
    /// text block holds the same JSON.
    pub async fn call(&self, name: &str, args: Value) -> Value {
        let result = self.call_raw(name, args).await;
        assert_ne!(
            result.is_error,
            Some(true),
            "{name} failed: {}",
            text_of(&result)
        );
        let structured = result
            .structured_content
            .clone()
            .expect("structuredContent");
        let text: Value = serde_json::from_str(&text_of(&result)).expect("text block is JSON");
        assert_eq!(
            text, structured,
            "{name}: text block and structuredContent differ"
        );
        structured
    }

    /// Calls a tool that must fail; returns its error message.
    pub async fn call_err(&self, name: &str, args: Value) -> String {
        let result = self.call_raw(name, args).await;
        assert_eq!(
            result.is_error,
            Some(true),
            "{name} should fail: {}",
            text_of(&result)
        );
        text_of(&result)
    }

    pub async fn stop(self) {
        let _ = self.client.cancel().await;
    }
}

pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
