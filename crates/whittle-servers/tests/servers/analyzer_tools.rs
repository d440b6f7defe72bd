//! The `analyzer` server as a real process over stdio MCP.
use crate::fixture_support;
use crate::report_support;

use std::path::{Path, PathBuf};

use fixture_support::fixture;
use report_support::Server;
use serde_json::{json, Value};

const NPE_1: &str = "FATAL EXCEPTION: main\nProcess: com.shop, PID: 4242\n\
    java.lang.NullPointerException: order 17 missing\n\
    \tat com.shop.CheckoutActivity.onClick(CheckoutActivity.kt:42)\n\
    \tat com.shop.CheckoutActivity$$ExternalSyntheticLambda0.onClick(Unknown Source:0)\n\
    \tat android.view.View.performClick(View.java:7659)";
const NPE_2: &str = "FATAL EXCEPTION: main\nProcess: com.shop, PID: 5151\n\
    java.lang.NullPointerException: order 3 missing\n\
    \tat com.shop.CheckoutActivity.onClick(CheckoutActivity.kt:44)\n\
    \tat com.shop.CheckoutActivity$$ExternalSyntheticLambda1.onClick(Unknown Source:0)\n\
    \tat android.view.View.performClick(View.java:7659)";
const ISE: &str = "FATAL EXCEPTION: main\nProcess: com.shop, PID: 4242\n\
    java.lang.IllegalStateException: cart empty\n\
    \tat com.shop.CartFragment.checkout(CartFragment.kt:9)";

/// A session folder with 6 steps and three crashes, two of them the same bug.
fn write_session(root: &Path) -> PathBuf {
    let dir = root.join("sessions").join("2025-01-01_000000_shop");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("meta.json"),
        json!({"session_id": "2025-01-01_000000_shop", "name": "shop", "status": "failed", "platform": "android"}).to_string(),
    )
    .unwrap();
    let steps = [
        ("launch", "{}"),
        ("tap", "opened CartFragment"),
        ("tap", "scrolled the home feed"),
        ("tap", "on CheckoutActivity: entered address"),
        ("tap", "pressed pay in CheckoutActivity"),
        ("tap", "settings"),
    ];
    let lines: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, (a, n))| {
            json!({"index": i + 1, "action": a, "result": "ok", "notes": n}).to_string()
        })
        .collect();
    std::fs::write(dir.join("steps.jsonl"), lines.join("\n") + "\n").unwrap();
    let crashes = [
        json!({"crash_id": "c1", "kind": "java", "process": "com.shop", "stack": NPE_1, "step_index": 5, "repro_path": [1,2,3,4,5]}),
        json!({"crash_id": "c2", "kind": "java", "process": "com.shop", "stack": ISE, "step_index": 2, "repro_path": [1,2]}),
        json!({"crash_id": "c3", "kind": "java", "process": "com.shop", "stack": NPE_2, "step_index": 6, "repro_path": [1,2,3,4,5,6]}),
    ];
    let lines: Vec<String> = crashes.iter().map(Value::to_string).collect();
    std::fs::write(dir.join("crashes.jsonl"), lines.join("\n") + "\n").unwrap();
    dir
}

#[tokio::test]
async fn analyze_session_groups_duplicates() {
    let ws = tempfile::tempdir().unwrap();
    let dir = write_session(ws.path());
    let server = Server::spawn(&["analyzer"]).await;
    let r = server
        .call(
            "analyze_session",
            json!({"session_dir": dir.display().to_string()}),
        )
        .await;
    assert_eq!(r["unique"], 2);
    let groups = r["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["crash_ids"], json!(["c1", "c3"]));
    assert_eq!(
        groups[0]["label"],
        "NullPointerException in CheckoutActivity.onClick"
    );
    assert_eq!(groups[0]["step_index"], 5);
    assert_eq!(groups[0]["repro_path"], json!([1, 2, 3, 4, 5]));
    assert_eq!(groups[0]["kind"], "java");
    assert_eq!(groups[0]["process"], "com.shop");
    assert_eq!(groups[1]["crash_ids"], json!(["c2"]));
    assert_ne!(groups[0]["fingerprint"], groups[1]["fingerprint"]);
    server.stop().await;
}

#[tokio::test]
async fn analyze_session_refuses_relative_and_dotdot_paths() {
    let ws = tempfile::tempdir().unwrap();
    let dir = write_session(ws.path());
    let server = Server::spawn(&["analyzer"]).await;
    let sneaky = format!("{}/../2025-01-01_000000_shop", dir.display());
    for bad in ["sessions/2025-01-01_000000_shop", sneaky.as_str(), ""] {
        let msg = server
            .call_err("analyze_session", json!({"session_dir": bad}))
            .await;
        assert!(msg.contains("absolute path"), "{bad}: {msg}");
    }
    let missing = ws.path().join("nope").display().to_string();
    let msg = server
        .call_err("analyze_session", json!({"session_dir": missing}))
        .await;
    assert!(msg.contains("nope"), "{msg}");
    server.stop().await;
}

#[tokio::test]
async fn suggest_minimal_path_is_a_low_confidence_static_guess() {
    let ws = tempfile::tempdir().unwrap();
    let dir = write_session(ws.path());
    let server = Server::spawn(&["analyzer"]).await;
    let r = server
        .call(
            "suggest_minimal_path",
            json!({"session_dir": dir.display().to_string(), "crash_id": "c1"}),
        )
        .await;
    // launch, the two CheckoutActivity steps (4 and the trigger 5); not 2, 3.
    assert_eq!(r["path"], json!([1, 4, 5]));
    assert_eq!(r["confidence"], "low");
    assert!(r["rationale"].as_str().unwrap().contains("Static"), "{r}");
    let msg = server
        .call_err(
            "suggest_minimal_path",
            json!({"session_dir": dir.display().to_string(), "crash_id": "zz"}),
        )
        .await;
    assert!(msg.contains("no crash \"zz\""), "{msg}");
    server.stop().await;
}

#[tokio::test]
async fn compute_signature_over_mcp_matches_the_fixtures() {
    let Some(java) =
        fixture("java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt")
    else {
        return;
    };
    let Some(native) = fixture("native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt")
    else {
        return;
    };
    let server = Server::spawn(&["analyzer"]).await;
    let a = server
        .call("compute_signature", json!({"stack": java}))
        .await;
    assert_eq!(a["kind"], "java");
    assert_eq!(a["stable"], true);
    assert_eq!(a["label"], "NoSuchMethodError in ViewTest.disposable");
    let fp = a["fingerprint"].as_str().unwrap();
    assert!(fp.len() == 12 && fp.chars().all(|c| c.is_ascii_hexdigit()));
    let again = server
        .call("compute_signature", json!({"stack": java.replace("MainActivity.java:15", "MainActivity.java:99"), "kind": "java"}))
        .await;
    assert_eq!(again["fingerprint"], a["fingerprint"]);
    let n = server
        .call(
            "compute_signature",
            json!({"stack": native, "kind": "native"}),
        )
        .await;
    assert_eq!(
        n["label"],
        "SIGSEGV in Java_com_baiiu_nativeleak_MainActivity_testLeak"
    );
    assert_ne!(n["fingerprint"], a["fingerprint"]);
    let none = server
        .call("compute_signature", json!({"stack": "nothing here"}))
        .await;
    assert_eq!(none["fingerprint"], Value::Null);
    assert_eq!(none["stable"], false);
    server.stop().await;
}
