//! Each injected fault, seen from a real client.
use crate::sim_support;

use std::time::Duration;

use rmcp::service::ServiceError;
use serde_json::json;
use sim_support::{test_model, Sim};

/// A simulator with `fault`, capturing sim-1's log (session `s`), after one launch.
async fn captured_sim(fault: &str) -> Sim {
    let sim = Sim::start(&test_model(), &["--fault", fault]).await;
    sim.start_capture("s", sim.dir.path(), "sim-1").await;
    sim.launch("sim-1").await;
    sim.terminate("sim-1").await;
    sim
}

#[tokio::test]
async fn capture_dies_after_n_launches() {
    let sim = captured_sim("capture-dies-after=2").await;
    let list = sim.call("list_captures", json!({})).await;
    assert_eq!(list["captures"][0]["status"], "running");
    sim.launch("sim-1").await;
    let list = sim.call("list_captures", json!({})).await;
    assert_eq!(list["captures"][0]["status"], "failed");
    assert_eq!(list["captures"][0]["reason"], "logcat process exited");
    let stopped = sim.call("stop_capture", json!({"session_id": "s"})).await;
    assert_eq!(stopped["stopped"], false);
    assert_eq!(stopped["status"], "failed");
}

#[tokio::test]
async fn hang_makes_one_tool_never_answer() {
    let sim = Sim::start(&test_model(), &["--fault", "hang=tap_element"]).await;
    sim.launch("sim-1").await;
    let r = sim
        .call_with_timeout(
            "tap_element",
            json!({"device": "sim-1", "strategies": [{"by": "identifier", "value": "t:id/inc"}]}),
            Duration::from_millis(500),
        )
        .await;
    assert!(matches!(r, Err(ServiceError::Timeout { .. })), "{r:?}");
    // Other tools still answer.
    let h = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    assert!(!h["elements"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn garbage_returns_a_text_block_that_is_not_the_contract_shape() {
    let sim = Sim::start(&test_model(), &["--fault", "garbage=get_recent_crashes"]).await;
    let r = sim
        .raw("get_recent_crashes", json!({"device": "sim-1"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true));
    assert!(r.structured_content.is_none());
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        serde_json::from_str::<whittle_contract::log::RecentCrashes>(text).is_err(),
        "{text}"
    );
    sim.call("clear_logs", json!({"device": "sim-1"})).await;
}

#[tokio::test]
async fn server_exits_on_the_launch_after_n() {
    let sim = Sim::start(
        &test_model(),
        &["--devices", "2", "--fault", "exit-after-launches=2"],
    )
    .await;
    sim.launch("sim-1").await;
    sim.launch("sim-2").await;
    let r = sim
        .raw(
            "mobile_launch_app",
            json!({"device": "sim-1", "packageName": sim_support::PKG}),
        )
        .await;
    assert!(r.is_err(), "third launch must kill the server: {r:?}");
    let after = sim.raw("mobile_list_available_devices", json!({})).await;
    assert!(after.is_err());
}

#[tokio::test]
async fn devices_disappear_on_the_launch_after_n_and_captures_fail() {
    let sim = captured_sim("device-gone-after-launches=1").await;
    let err = sim
        .call_err(
            "mobile_launch_app",
            json!({"device": "sim-1", "packageName": sim_support::PKG}),
        )
        .await;
    assert_eq!(err, "device 'sim-1' not found (it was disconnected)");
    let listed = sim.call("mobile_list_available_devices", json!({})).await;
    assert_eq!(listed["devices"], json!([]));
    let err = sim
        .call_err("get_hierarchy", json!({"device": "sim-1"}))
        .await;
    assert!(err.contains("disconnected"), "{err}");
    let list = sim.call("list_captures", json!({})).await;
    assert_eq!(list["captures"][0]["status"], "failed");
    assert_eq!(list["captures"][0]["reason"], "device disconnected");
    // The server itself stays up and answers.
    sim.call("list_captures", json!({})).await;
}

#[test]
fn unknown_faults_are_refused_at_startup() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_whittle-servers"))
        .args(["sim", "--model", "x.json", "--fault", "explode=1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("explode"));
}
