//! `whittle-servers <role> --listen`: MCP streamable HTTP at `/mcp` behind a bearer
//! token, refused on the network without one, and HTTPS with `--tls-cert/--tls-key`.

use crate::answer_support;
use crate::listen_support;
use crate::sim_support;

use std::time::Duration;

use listen_support::*;
use serde_json::json;

#[tokio::test]
async fn the_simulator_serves_its_tools_over_http_to_the_token_holder() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 2, &[]);
    assert!(server.url.starts_with("http://127.0.0.1:") && server.url.ends_with("/mcp"));

    let client = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let tools = client.list_all_tools().await.unwrap();
    for tool in [
        "mobile_list_available_devices",
        "get_hierarchy",
        "start_capture",
    ] {
        assert!(tools.iter().any(|t| t.name == tool), "{tool}");
    }
    let devices = call(&client, "mobile_list_available_devices", json!({})).await;
    let ids = answer_support::device_ids(&devices);
    assert_eq!(ids, ["sim-1", "sim-2"]);

    // A second client shares the host's devices, one session per device at a time
    // (`listen_leases.rs`): what one launched, the other sees once it let go.
    let other = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    call(
        &client,
        "mobile_launch_app",
        json!({"device": "sim-2", "packageName": sim_support::PKG}),
    )
    .await;
    client.cancel().await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let hierarchy = loop {
        let args = json!({"device": "sim-2"}).as_object().cloned().unwrap();
        let answer = other
            .call_tool(
                rmcp::model::CallToolRequestParams::new("get_hierarchy").with_arguments(args),
            )
            .await
            .unwrap();
        if answer.is_error != Some(true) {
            break answer.structured_content.unwrap();
        }
        assert!(std::time::Instant::now() < deadline, "{answer:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(hierarchy["elements"].to_string().contains("t:id/root"));
    other.cancel().await.unwrap();
}

#[tokio::test]
async fn a_missing_or_wrong_token_is_refused_before_any_tool_runs() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &[]);
    for token in [None, Some("lab-token-0123456789abcdeX"), Some("short")] {
        let refused = connect(&server.url, token, plain_client())
            .await
            .unwrap_err();
        assert!(
            refused.to_lowercase().contains("auth"),
            "{token:?}: {refused}"
        );
    }
    // Straight HTTP: 401 with a Bearer challenge, and nothing reached the service.
    let http = plain_client();
    let response = http
        .post(&server.url)
        .header("authorization", "Bearer wrong-token-0123456789")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "start_capture", "arguments": {}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert!(response.headers()["www-authenticate"]
        .to_str()
        .unwrap()
        .starts_with("Bearer"));
    let body = response.text().await.unwrap();
    assert!(!body.contains(TOKEN));

    let client = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let captures = call(&client, "list_captures", json!({})).await;
    assert_eq!(captures["captures"], json!([]), "no capture was started");
    let elsewhere = http
        .post(server.url.replace("/mcp", "/other"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), 404);
    client.cancel().await.unwrap();
}

/// Issue 40: a body that is not JSON is answered as JSON-RPC 2.0 says (HTTP 400, a
/// parse error with a null id), JSON that is no JSON-RPC message as an invalid request,
/// and the server goes on serving well-formed calls.
#[tokio::test]
async fn malformed_json_rpc_gets_a_400_with_a_json_rpc_error() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &[]);
    let http = plain_client();
    let post = |body: &'static str| {
        http.post(&server.url)
            .bearer_auth(TOKEN)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
            .send()
    };
    for (body, code, message) in [
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize""#,
            -32700,
            "Parse error",
        ),
        ("not json at all", -32700, "Parse error"),
        ("", -32700, "Parse error"),
        (
            r#"{"id": 1, "method": "tools/list"}"#,
            -32600,
            "Invalid Request",
        ),
        ("[]", -32600, "Invalid Request"),
        ("42", -32600, "Invalid Request"),
    ] {
        let response = post(body).await.unwrap();
        assert_eq!(response.status(), 400, "{body:?}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{body:?}"
        );
        let answer: serde_json::Value = response.json().await.unwrap();
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}),
            "{body:?}"
        );
    }
    // Another content type stays rmcp's 415; the server still serves a real client.
    let response = http
        .post(&server.url)
        .bearer_auth(TOKEN)
        .header("content-type", "text/plain")
        .header("accept", "application/json, text/event-stream")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    let client = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let devices = call(&client, "mobile_list_available_devices", json!({})).await;
    assert_eq!(answer_support::device_ids(&devices), ["sim-1"]);
    client.cancel().await.unwrap();
}

#[test]
fn a_network_address_without_a_token_is_refused_before_the_port_opens() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(dir.path());
    // A port known to be free: bound and released here, then asked for.
    let port = std::net::TcpListener::bind("0.0.0.0:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("0.0.0.0:{port}");
    let (code, out, err) = run_to_end(
        &[
            "sim",
            "--model",
            model.to_str().unwrap(),
            "--listen",
            &listen,
        ],
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "nothing was announced: {out}");
    assert!(
        err.contains("no bearer token") && err.contains("--token-file"),
        "{err}"
    );
    // The refusal is the same for every subcommand.
    let (code, _, err) = run_to_end(&["analyzer", "--listen", &listen], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        std::net::TcpListener::bind(("0.0.0.0", port)).is_ok(),
        "port stayed free"
    );

    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let open = Listening::start(
        &[
            "analyzer",
            "--listen",
            "0.0.0.0:0",
            "--token-file",
            token_file.to_str().unwrap(),
        ],
        &[],
    );
    assert!(open.url.starts_with("http://0.0.0.0:"), "{}", open.url);
}

#[tokio::test]
async fn tls_serves_https_only_and_the_report_server_listens_too() {
    let dir = tempfile::tempdir().unwrap();
    let cert =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    let cert_file = dir.path().join("cert.pem");
    let key_file = dir.path().join("key.pem");
    std::fs::write(&cert_file, cert.cert.pem()).unwrap();
    std::fs::write(&key_file, cert.signing_key.serialize_pem()).unwrap();
    let workspace = dir.path().join("ws");
    let server = Listening::start(
        &[
            "all",
            "--workspace",
            workspace.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            cert_file.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
        &[("WHITTLE_SERVER_TOKEN", TOKEN)],
    );
    assert!(server.url.starts_with("https://"), "{}", server.url);

    install_crypto();
    let trusted = reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(cert.cert.pem().as_bytes()).unwrap()])
        .build()
        .unwrap();
    let client = connect(&server.url, Some(TOKEN), trusted).await.unwrap();
    let started = call(
        &client,
        "start_session",
        json!({"name": "over-tls", "extra": {}}),
    )
    .await;
    assert!(started["session_id"]
        .as_str()
        .unwrap()
        .ends_with("_over-tls"));
    client.cancel().await.unwrap();

    // An untrusted certificate and plain HTTP to the TLS port both fail.
    assert!(connect(&server.url, Some(TOKEN), plain_client())
        .await
        .is_err());
    let plain = server.url.replace("https://", "http://");
    let refused = tokio::time::timeout(
        Duration::from_secs(10),
        connect(&plain, Some(TOKEN), plain_client()),
    )
    .await
    .expect("plain HTTP to a TLS port ends");
    assert!(refused.is_err());
}

#[test]
fn bad_tls_files_and_stray_options_are_refused_with_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pem");
    let (code, _, err) = run_to_end(
        &[
            "analyzer",
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            missing.to_str().unwrap(),
            "--tls-key",
            missing.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("missing.pem"), "{err}");
    let (code, _, err) = run_to_end(&["analyzer", "--token-file", "t"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--token-file needs --listen"), "{err}");
}
