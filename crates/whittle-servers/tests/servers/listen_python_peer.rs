//! A client written on the official Python MCP SDK (streamable HTTP) passes Whittle's
//! tool contract against `whittle-servers sim --listen` and `all --listen`, and is
//! refused with a wrong token. The SDK lives in the repository's `.venv-peers`
//! (scripts/setup); without it the test is skipped with the reason, except under CI
//! (`CI` set), where a missing peer is a failure.

use crate::listen_support;
use crate::sim_support;

use std::path::PathBuf;
use std::process::Command;

use listen_support::{Listening, TOKEN};

fn peer_python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".venv-peers/bin/python");
    if python.is_file() {
        return Some(python);
    }
    let reason = format!(
        "{} is missing: run scripts/setup (python3 -m venv .venv-peers && .venv-peers/bin/pip install -r tests/peers/python/requirements.txt)",
        python.display()
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the Python peer: {reason}"
    );
    eprintln!("SKIPPED listen_python_peer: {reason}");
    None
}

#[test]
fn the_python_sdk_client_passes_the_tool_contract_over_http() {
    let Some(python) = peer_python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.json");
    std::fs::write(&model, sim_support::test_model().to_string()).unwrap();
    let workspace = dir.path().join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    let devices = Listening::sim(&model, 2, &[]);
    let report = Listening::start(
        &[
            "all",
            "--workspace",
            workspace.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
        ],
        &[("WHITTLE_SERVER_TOKEN", TOKEN)],
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/peers/python/http_contract_client.py");
    let out = Command::new(python)
        .arg(script)
        .args(["--device-url", &devices.url, "--report-url", &report.url])
        .args(["--token-env", "PEER_TOKEN", "--package", sim_support::PKG])
        .args(["--tap-id", "t:id/next", "--input-id", "t:id/email"])
        .arg("--workspace")
        .arg(&workspace)
        .env("PEER_TOKEN", TOKEN)
        .output()
        .expect("run the Python peer");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python peer failed\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("tool contract ok"), "{stdout}");
}
