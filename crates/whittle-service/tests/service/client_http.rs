//! `url` servers through the hub: the per-call timeout as over stdio, the connect
//! timeout, and a device pool across two lab hosts routed call by call.

use crate::client_support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client_support::{servers_bin, setup};
use serde_json::json;
use whittle_service::client::{check_roles, Hub, McpErrorKind, RoleStatus};

const TOKEN: &str = "client-http-token-0123456789";

/// `whittle-servers sim … --listen 127.0.0.1:0` in `dir`; killed on drop.
pub(crate) struct Host(Child, pub(crate) String);

impl Host {
    pub(crate) fn start(bin: &Path, dir: &Path, extra: &[&str]) -> Host {
        let mut child = Command::new(bin)
            .current_dir(dir)
            .args([
                "sim",
                "--model",
                "shop.json",
                "--devices",
                "2",
                "--listen",
                "127.0.0.1:0",
            ])
            .args(extra)
            .env("WHITTLE_SERVER_TOKEN", TOKEN)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().rsplit(' ').next().unwrap().to_string();
        Host(child, url)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn url_server(url: &str) -> serde_json::Value {
    json!({"url": url, "headers": {"Authorization": format!("Bearer {TOKEN}")}})
}

#[tokio::test]
async fn a_hung_tool_over_http_times_out_like_over_stdio() {
    let Some(bin) = servers_bin() else { return };
    let probe = setup(&bin, &[], 1500, |_| {});
    let host = Host::start(&bin, probe.dir.path(), &["--fault", "hang=get_hierarchy"]);
    let s = setup(&bin, &[], 1500, |cfg| {
        cfg["mcpServers"]["sim"] = url_server(&host.1);
    });
    let hub = Hub::connect(&s.config).await.unwrap();
    assert_eq!(hub.mobile().list_devices().await.unwrap().devices.len(), 2);
    let started = Instant::now();
    let err = hub.ui().get_hierarchy("sim-1").await.unwrap_err();
    assert_eq!(err.kind, McpErrorKind::Timeout { after_ms: 1500 }, "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
    hub.shutdown().await;
}

#[tokio::test]
async fn the_connect_timeout_bounds_a_host_that_never_answers() {
    let Some(bin) = servers_bin() else { return };
    // Accepts TCP (the kernel does) but never answers the TLS handshake.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let s = setup(&bin, &[], 20_000, |cfg| {
        cfg["mcpServers"]["sim"] = json!({"url": format!("https://127.0.0.1:{port}/mcp"),
            "connect_timeout_ms": 300});
    });
    let started = Instant::now();
    let checks = check_roles(&s.config).await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let mobile = checks
        .iter()
        .find(|c| c.server.as_deref() == Some("sim"))
        .unwrap();
    let RoleStatus::Problem { problem, .. } = &mobile.status else {
        panic!("a silent host is a problem")
    };
    assert!(problem.contains("connect timeout (300 ms)"), "{problem}");
    drop(silent);
}

#[tokio::test]
async fn each_device_call_goes_to_the_host_that_owns_the_device() {
    let Some(bin) = servers_bin() else { return };
    let probe = setup(&bin, &[], 5000, |_| {});
    let a = Host::start(&bin, probe.dir.path(), &[]);
    let b = Host::start(&bin, probe.dir.path(), &[]);
    let s = setup(&bin, &[], 5000, |cfg| {
        cfg["mcpServers"]["labA"] = url_server(&a.1);
        cfg["mcpServers"]["labB"] = url_server(&b.1);
        for role in ["mobile", "ui", "log"] {
            cfg["roles"][role] = json!(["labA", "labB"]);
        }
    });
    let hub = Hub::connect(&s.config).await.unwrap();
    let ids: Vec<String> = hub
        .mobile()
        .list_devices()
        .await
        .unwrap()
        .devices
        .into_iter()
        .map(|d| d.id)
        .collect();
    assert_eq!(
        ids,
        ["labA/sim-1", "labA/sim-2", "labB/sim-1", "labB/sim-2"]
    );
    let route = hub.device_route("labB/sim-2").unwrap();
    assert_eq!(
        (route.server.as_str(), route.device.as_str()),
        ("labB", "sim-2")
    );

    hub.mobile()
        .launch_app("labB/sim-2", "com.example.shop")
        .await
        .unwrap();
    let launched = hub.ui().get_hierarchy("labB/sim-2").await.unwrap();
    assert!(launched
        .elements
        .iter()
        .any(|e| e.resource_id == "com.example.shop:id/home_root"));
    let other = hub.ui().get_hierarchy("labA/sim-2").await.unwrap();
    assert!(
        !other
            .elements
            .iter()
            .any(|e| e.resource_id == "com.example.shop:id/home_root"),
        "the launch went to labB only"
    );

    // A capture is listed and stopped on the host it started on.
    let dir = tempfile::tempdir().unwrap();
    let dir_text = dir.path().to_string_lossy().to_string();
    hub.log()
        .start_capture("cap-b", &dir_text, "labB/sim-1")
        .await
        .unwrap();
    let listed = hub.log().list_captures().await.unwrap();
    assert_eq!(listed.captures.len(), 1, "{listed:?}");
    assert!(hub.log().stop_capture("cap-b").await.unwrap().stopped);

    let err = hub.mobile().list_apps("labC/sim-1").await.unwrap_err();
    assert!(matches!(err.kind, McpErrorKind::UnknownDevice(_)), "{err}");
    hub.shutdown().await;
}
