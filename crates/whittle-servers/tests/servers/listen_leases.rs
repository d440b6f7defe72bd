//! A lab host lends each device to one MCP session at a time (`device/lease.rs`): two
//! clients of one `whittle-servers sim --listen` never drive one device together. The
//! second is refused with a `device_busy` record naming the holder until the first
//! session ends — closed by its client, or timed out idle.

use crate::listen_support;
use crate::sim_support;
// A tool call whatever it answers (`call` of listen_support asserts success).
use crate::support::call as raw_call;

use std::time::{Duration, Instant};

use listen_support::*;
use rmcp::model::CallToolResult;
use serde_json::{json, Value};
use whittle_contract::lease::{DeviceBusy, DEVICE_BUSY};

fn model_file(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("model.json");
    std::fs::write(&path, sim_support::test_model().to_string()).unwrap();
    path
}

fn busy(answer: &CallToolResult) -> Option<DeviceBusy> {
    if answer.is_error != Some(true) {
        return None;
    }
    let record: DeviceBusy = serde_json::from_value(answer.structured_content.clone()?).ok()?;
    (record.error == DEVICE_BUSY).then_some(record)
}

fn launch(device: &str) -> Value {
    json!({"device": device, "packageName": sim_support::PKG})
}

#[tokio::test]
async fn a_device_one_session_drives_is_refused_to_another_until_that_session_closes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(&dir), 2, &[]);
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
    let server = Listening::sim(&model_file(&dir), 1, &["--session-idle-secs", "1"]);
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
