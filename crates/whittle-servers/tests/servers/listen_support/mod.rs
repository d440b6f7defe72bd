//! Shared by the `listen_*` tests: a `whittle-servers … --listen 127.0.0.1:0` process
//! (its URL read from the line it prints on stdout) and an rmcp streamable HTTP client.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderValue, AUTHORIZATION};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub const TOKEN: &str = "lab-token-0123456789abcdef";

/// A listening server; killed on drop.
pub struct Listening {
    pub child: Child,
    pub url: String,
}

impl Listening {
    /// Spawns `whittle-servers ARGS` and waits for its `listening on URL` line.
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> Listening {
        let mut child = Command::new(env!("CARGO_BIN_EXE_whittle-servers"))
            .args(args)
            .env_remove("WHITTLE_SERVER_TOKEN")
            .envs(envs.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn whittle-servers");
        let url = read_url(&mut child);
        Listening { child, url }
    }

    /// `sim --model MODEL --devices N --listen 127.0.0.1:0` with `TOKEN`.
    pub fn sim(model: &std::path::Path, devices: u32, extra: &[&str]) -> Listening {
        let devices = devices.to_string();
        let mut args = vec![
            "sim",
            "--model",
            model.to_str().unwrap(),
            "--devices",
            &devices,
            "--listen",
            "127.0.0.1:0",
        ];
        args.extend_from_slice(extra);
        Listening::start(&args, &[("WHITTLE_SERVER_TOKEN", TOKEN)])
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The URL a listening `whittle-servers` announces on its stdout's first line.
pub fn read_url(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout piped"))
        .read_line(&mut line)
        .unwrap();
    line.trim()
        .strip_prefix("whittle-servers: listening on ")
        .unwrap_or_else(|| panic!("no URL line, got {line:?}"))
        .to_string()
}

/// Runs `whittle-servers ARGS` to its end; (exit code, stdout, stderr).
pub fn run_to_end(args: &[&str], envs: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_whittle-servers"))
        .args(args)
        .env_remove("WHITTLE_SERVER_TOKEN")
        .envs(envs.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("whittle-servers {args:?} did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let code = child.wait().unwrap().code();
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (code, out, err)
}

/// rustls needs a process-wide crypto provider before the first client is built.
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// An rmcp client over streamable HTTP; `token` goes in `Authorization: Bearer`.
pub async fn connect(
    url: &str,
    token: Option<&str>,
    http: reqwest::Client,
) -> Result<RunningService<RoleClient, ()>, String> {
    let mut headers = HashMap::new();
    if let Some(token) = token {
        let value = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
        headers.insert(AUTHORIZATION, value);
    }
    let config = StreamableHttpClientTransportConfig::with_uri(Arc::<str>::from(url))
        .custom_headers(headers);
    let transport = StreamableHttpClientTransport::with_client(http, config);
    tokio::time::timeout(Duration::from_secs(10), ().serve(transport))
        .await
        .map_err(|_| "no handshake within 10 s".to_string())?
        .map_err(|e| e.to_string())
}

pub fn plain_client() -> reqwest::Client {
    install_crypto();
    reqwest::Client::builder().build().unwrap()
}

/// A tool's structured result (fails the test on a tool error).
pub async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> Value {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert_ne!(r.is_error, Some(true), "{tool} failed: {:?}", r.content);
    r.structured_content.expect("structuredContent")
}

/// The simulator's test model written into `dir`, for a `sim --listen` host.
pub fn model_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("model.json");
    std::fs::write(&path, crate::sim_support::test_model().to_string()).unwrap();
    path
}

/// The `device_busy` record of a refused call, when it is one.
pub fn busy(answer: &rmcp::model::CallToolResult) -> Option<whittle_contract::lease::DeviceBusy> {
    if answer.is_error != Some(true) {
        return None;
    }
    let record: whittle_contract::lease::DeviceBusy =
        serde_json::from_value(answer.structured_content.clone()?).ok()?;
    (record.error == whittle_contract::lease::DEVICE_BUSY).then_some(record)
}

/// `mobile_launch_app`'s arguments for the test app on `device`.
pub fn launch(device: &str) -> Value {
    serde_json::json!({"device": device, "packageName": crate::sim_support::PKG})
}
