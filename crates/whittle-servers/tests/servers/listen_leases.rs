//! A lab host lends each device to one MCP session at a time (`device/lease.rs`): two
//! clients of one `whittle-servers sim --listen` never drive one device together. The
//! second is refused with a `device_busy` record naming the holder until the first
//! session ends — closed by its client, or timed out idle.

use crate::listen_support;
// A tool call whatever it answers (`call` of listen_support asserts success).
use crate::support::call as raw_call;

use std::time::{Duration, Instant};

use listen_support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn a_device_one_session_drives_is_refused_to_another_until_that_session_closes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 2, &[]);
    let first = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let second = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();

    // Listing takes nothing: both may look before either acts.
    assert!(
        busy(&raw_call(&second, "mobile_list_apps", json!({"device": "sim-1"})).await).is_none()
    );
    let launched = raw_call(&first, "mobile_launch_app", launch("sim-1")).await;
    assert_ne!(launched.is_error, Some(true), "{launched:?}");

    // Every call of the other session naming sim-1 is refused, listing its apps too.
    for (tool, args) in [
        ("mobile_list_apps", json!({"device": "sim-1"})),
        ("get_hierarchy", json!({"device": "sim-1"})),
        ("mobile_launch_app", launch("sim-1")),
    ] {
        let answer = raw_call(&second, tool, args).await;
        let record = busy(&answer).unwrap_or_else(|| panic!("{tool}: {answer:?}"));
        assert_eq!(record.device, "sim-1");
        assert!(
            record.holder.starts_with("MCP session "),
            "{}",
            record.holder
        );
    }
    // The holder goes on, and the other device is free for the second.
    let own = raw_call(&first, "get_hierarchy", json!({"device": "sim-1"})).await;
    assert!(busy(&own).is_none() && own.is_error != Some(true));
    let other = raw_call(&second, "mobile_launch_app", launch("sim-2")).await;
    assert!(busy(&other).is_none() && other.is_error != Some(true));
    // ...and now the first may not drive sim-2.
    assert!(busy(&raw_call(&first, "get_hierarchy", json!({"device": "sim-2"})).await).is_some());

    // Closing the session frees its devices; what it did to them stays.
    first.cancel().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = raw_call(&second, "get_hierarchy", json!({"device": "sim-1"})).await;
        if busy(&answer).is_none() {
            assert!(
                answer.structured_content.unwrap()["elements"]
                    .to_string()
                    .contains("t:id/root"),
                "the app the first session launched is still up"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "sim-1 was not freed after the session closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn a_session_that_goes_idle_past_its_timeout_frees_its_devices() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &["--session-idle-secs", "1"]);
    let first = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let second = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    raw_call(&first, "mobile_launch_app", launch("sim-1")).await;
    assert!(
        busy(&raw_call(&second, "mobile_list_apps", json!({"device": "sim-1"})).await).is_some()
    );
    // The first says nothing more; the second keeps its own session alive by asking.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let answer = raw_call(&second, "mobile_list_apps", json!({"device": "sim-1"})).await;
        if busy(&answer).is_none() {
            break;
        }
        assert!(Instant::now() < deadline, "an idle session kept sim-1");
    }
    let taken = raw_call(&second, "mobile_launch_app", launch("sim-1")).await;
    assert!(busy(&taken).is_none() && taken.is_error != Some(true));
    drop(first);
    second.cancel().await.unwrap();
}

/// Issue: a holder that only pings kept its device for ever. A lease lapses when no call
/// acting on the device has run for `--lease-idle-secs`, whatever else the session
/// sends; another session then takes the device, the lapsed holder's capture of it fails
/// with the reason, and the lapsed holder is refused like anyone else.
#[tokio::test]
async fn a_lease_lapses_when_no_call_acts_on_the_device_whatever_pings_come() {
    use rmcp::model::{ClientRequest, PingRequest};
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &["--lease-idle-secs", "1"]);
    let holder = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let other = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let session_dir = dir.path().join("run");
    std::fs::create_dir(&session_dir).unwrap();
    call(&holder, "mobile_launch_app", launch("sim-1")).await;
    let capture = json!({"session_id": "held", "session_dir": session_dir, "device": "sim-1"});
    call(&holder, "start_capture", capture).await;
    let taken = Instant::now();

    // The holder keeps its session busy with pings, listings and capture checks; the
    // other asks for the device until it gets it.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        holder
            .send_request(ClientRequest::PingRequest(PingRequest::default()))
            .await
            .unwrap();
        let listing = raw_call(&holder, "mobile_list_apps", json!({"device": "sim-1"})).await;
        assert!(busy(&listing).is_none());
        call(&holder, "list_captures", json!({})).await;
        let answer = raw_call(&other, "mobile_launch_app", launch("sim-1")).await;
        if busy(&answer).is_none() {
            assert_ne!(answer.is_error, Some(true), "{answer:?}");
            break;
        }
        assert!(Instant::now() < deadline, "pings kept sim-1 past its lease");
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    assert!(
        taken.elapsed() >= Duration::from_millis(900),
        "taken after {:?}, before the lease's idle time",
        taken.elapsed()
    );
    // The lapsed holder is refused, naming the new holder; its capture of the device
    // failed with the reason.
    let refused = raw_call(&holder, "get_hierarchy", json!({"device": "sim-1"})).await;
    let record = busy(&refused).unwrap_or_else(|| panic!("{refused:?}"));
    assert!(
        record.holder.starts_with("MCP session "),
        "{}",
        record.holder
    );
    let listed = call(&holder, "list_captures", json!({})).await;
    assert_eq!(listed["captures"][0]["status"], "failed", "{listed}");
    let reason = listed["captures"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("lease lapsed"), "{reason}");
    // The new holder's calls act on the device: it keeps it.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let own = raw_call(&other, "get_hierarchy", json!({"device": "sim-1"})).await;
        assert!(
            busy(&own).is_none() && own.is_error != Some(true),
            "{own:?}"
        );
    }
    assert!(busy(&raw_call(&holder, "get_hierarchy", json!({"device": "sim-1"})).await).is_some());
    holder.cancel().await.unwrap();
    other.cancel().await.unwrap();
}

/// A capture belongs to the session that started it: another session neither sees it
/// nor stops it (a `capture_not_yours` tool error), and its own session does both.
#[tokio::test]
async fn a_capture_is_only_its_sessions_to_list_or_stop() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 2, &[]);
    let owner = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let other = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let capture = json!({"session_id": "mine", "session_dir": dir.path(), "device": "sim-1"});
    call(&owner, "start_capture", capture).await;

    let listed = call(&other, "list_captures", json!({})).await;
    assert_eq!(
        listed["captures"],
        json!([]),
        "another session's capture shown"
    );
    let stop = raw_call(&other, "stop_capture", json!({"session_id": "mine"})).await;
    assert_eq!(stop.is_error, Some(true), "{stop:?}");
    let record = stop.structured_content.clone().unwrap();
    assert_eq!(record["error"], "capture_not_yours", "{record}");
    // Nor can it start one under that id on another device it holds.
    let again = json!({"session_id": "mine", "session_dir": dir.path(), "device": "sim-2"});
    let refused = raw_call(&other, "start_capture", again).await;
    assert_eq!(refused.is_error, Some(true), "{refused:?}");

    let listed = call(&owner, "list_captures", json!({})).await;
    assert_eq!(
        listed["captures"],
        json!([{"session_id": "mine", "status": "running"}])
    );
    let stopped = call(&owner, "stop_capture", json!({"session_id": "mine"})).await;
    assert_eq!(stopped["stopped"], true);
    owner.cancel().await.unwrap();
    other.cancel().await.unwrap();
}

/// Issue: another client's self-declared name reached `device_busy` raw (200 KB of
/// terminal escapes). The holder's words are bounded and carry no control character.
#[tokio::test]
async fn a_clients_name_is_shown_to_others_made_safe() {
    use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::ServiceExt;

    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &[]);
    let name = format!(
        "\u{1b}[2J\u{1b}]0;pwned\u{7}{}",
        "\u{1b}[31mX".repeat(40_000)
    );
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new(name, "0"),
    );
    let mut headers = std::collections::HashMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        reqwest::header::HeaderValue::from_str(&format!("Bearer {TOKEN}")).unwrap(),
    );
    let config =
        StreamableHttpClientTransportConfig::with_uri(server.url.as_str()).custom_headers(headers);
    let transport = StreamableHttpClientTransport::with_client(plain_client(), config);
    let evil = info.serve(transport).await.unwrap();
    let args = launch("sim-1").as_object().cloned().unwrap();
    let launched = evil
        .call_tool(
            rmcp::model::CallToolRequestParams::new("mobile_launch_app").with_arguments(args),
        )
        .await
        .unwrap();
    assert_ne!(launched.is_error, Some(true), "{launched:?}");

    let other = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let refused = raw_call(&other, "get_hierarchy", json!({"device": "sim-1"})).await;
    let record = busy(&refused).unwrap_or_else(|| panic!("{refused:?}"));
    assert!(
        !record.holder.chars().any(char::is_control),
        "{:?}",
        record.holder
    );
    assert!(record.holder.len() < 256, "{} bytes", record.holder.len());
    assert!(
        record.holder.contains("?[2J?]0;pwned?"),
        "{}",
        record.holder
    );
    let text = format!("{:?}", refused.content);
    assert!(!text.contains('\u{1b}') && text.len() < 1024, "{text}");
    evil.cancel().await.unwrap();
    other.cancel().await.unwrap();
}

/// At the session ceiling with every session holding a device, a newcomer is refused
/// (HTTP 503 with a JSON-RPC error) instead of closing a run; once a run ends, it is let
/// in.
#[tokio::test]
async fn at_the_ceiling_a_newcomer_is_refused_rather_than_closing_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 2, &["--max-sessions", "2"]);
    let first = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let second = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    call(&first, "mobile_launch_app", launch("sim-1")).await;
    call(&second, "mobile_launch_app", launch("sim-2")).await;

    let http = plain_client();
    let initialize = || {
        http.post(&server.url)
            .header("authorization", format!("Bearer {TOKEN}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(
                json!({"jsonrpc": "2.0", "id": 7, "method": "initialize",
                       "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                  "clientInfo": {"name": "late", "version": "0"}}})
                .to_string(),
            )
            .send()
    };
    let refused = initialize().await.unwrap();
    assert_eq!(refused.status().as_u16(), 503);
    assert!(refused.headers().contains_key("retry-after"));
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 7);
    assert!(body["error"]["code"].is_i64(), "{body}");
    // Both runs still hold their devices and answer.
    for (client, device) in [(&first, "sim-1"), (&second, "sim-2")] {
        call(client, "get_hierarchy", json!({"device": device})).await;
    }
    first.cancel().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = initialize().await.unwrap();
        if answer.status().is_success() {
            break;
        }
        assert!(Instant::now() < deadline, "{}", answer.status());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    second.cancel().await.unwrap();
}
