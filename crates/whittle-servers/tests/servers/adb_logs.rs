//! The log role of `whittle-servers adb` over real stdio MCP with `fake-adb`: crash
//! records from logcat, clearing, and the logcat capture child.
use crate::support;

use std::time::Duration;

use serde_json::{json, Value};
use support::{words, FakeAdb, DEV, PKG};
use whittle_contract::log;

const CRASH_BUFFER: &str = "--------- beginning of crash
01-02 10:00:00.000  1000  1000 E AndroidRuntime: FATAL EXCEPTION: main
01-02 10:00:00.000  1000  1000 E AndroidRuntime: Process: com.example.shop, PID: 1000
01-02 10:00:00.000  1000  1000 E AndroidRuntime: java.lang.IllegalStateException: boom
01-02 10:00:00.000  1000  1000 E AndroidRuntime: \tat com.example.shop.Cart.checkout(Cart.kt:10)
01-02 10:00:03.000  2000  2000 E AndroidRuntime: FATAL EXCEPTION: main
01-02 10:00:03.000  2000  2000 E AndroidRuntime: Process: com.other.app, PID: 2000
01-02 10:00:03.000  2000  2000 E AndroidRuntime: java.lang.RuntimeException: other
01-02 10:00:04.000  3100  3100 F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
01-02 10:00:04.000  3100  3100 F DEBUG   : pid: 1200, tid: 1200, name: shop  >>> com.example.shop <<<
01-02 10:00:04.000  3100  3100 F DEBUG   : signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0
01-02 10:00:04.000  3100  3100 F DEBUG   : backtrace:
01-02 10:00:04.000  3100  3100 F DEBUG   :     #00 pc 00000000000113e0  /data/app/com.example.shop-1/lib/arm64/libshop.so (crash+20)
";

const ANR_LOG: &str = "01-02 10:00:02.000   500   520 E ActivityManager: ANR in com.example.shop (com.example.shop/.MainActivity)
01-02 10:00:02.000   500   520 E ActivityManager: PID: 1000
01-02 10:00:02.000   500   520 E ActivityManager: Reason: Input dispatching timed out
01-02 10:00:02.001   500   520 I ActivityManager: Killing 1000:com.example.shop/u0a1 (adj 0): bg anr
";

fn crash_fake() -> FakeAdb {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["logcat", "-b", "crash", "-d", "-v", "threadtime"],
        vec![json!({"stdout": CRASH_BUFFER})],
    );
    fake.on_dev(
        &["logcat", "-d", "-v", "threadtime", "-s", "ActivityManager"],
        vec![json!({"stdout": ANR_LOG})],
    );
    fake.on_dev(
        &["logcat", "-c", "-b", "crash", "-b", "main", "-b", "system"],
        vec![json!({})],
    );
    fake
}

#[tokio::test]
async fn crashes_of_every_kind_in_time_order_with_stable_ids() {
    let fake = crash_fake();
    let client = fake.start(&[]).await;
    let all = support::call_ok(&client, log::GET_RECENT_CRASHES, json!({"device": DEV})).await;
    assert_eq!(all["count"], 4);
    let summary: Vec<(String, String)> = all["crashes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap().into(),
                c["process"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("java".to_string(), PKG.to_string()),
            ("anr".into(), PKG.into()),
            ("java".into(), "com.other.app".into()),
            ("native".into(), PKG.into()),
        ]
    );
    let first = &all["crashes"][0];
    assert_eq!(first["ts"], "01-02 10:00:00.000");
    assert!(first["stack"]
        .as_str()
        .unwrap()
        .contains("IllegalStateException: boom"));

    let mine = support::call_ok(
        &client,
        log::GET_RECENT_CRASHES,
        json!({"device": DEV, "package": PKG}),
    )
    .await;
    assert_eq!(mine["count"], 3);
    let ids = |v: &Value| -> Vec<String> {
        v["crashes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["record_id"].as_str().unwrap().to_string())
            .collect()
    };
    let (all_ids, mine_ids) = (ids(&all), ids(&mine));
    assert_eq!(
        mine_ids,
        [all_ids[0].clone(), all_ids[1].clone(), all_ids[3].clone()]
    );
    let again = support::call_ok(&client, log::GET_RECENT_CRASHES, json!({"device": DEV})).await;
    assert_eq!(ids(&again), all_ids, "ids are stable across queries");
}

#[tokio::test]
async fn clear_logs_clears_crash_main_and_system_buffers() {
    let fake = crash_fake();
    let client = fake.start(&[]).await;
    support::call_ok(&client, log::CLEAR_LOGS, json!({"device": DEV})).await;
    assert_eq!(
        fake.dev_calls(),
        [words(&[
            "logcat", "-c", "-b", "crash", "-b", "main", "-b", "system"
        ])]
    );
}

#[tokio::test]
async fn adb_failing_is_a_tool_error() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["logcat", "-b", "crash", "-d", "-v", "threadtime"],
        vec![json!({"stderr": "error: device 'emulator-5554' not found\n", "exit": 1})],
    );
    let client = fake.start(&[]).await;
    let msg = support::call_err(&client, log::GET_RECENT_CRASHES, json!({"device": DEV})).await;
    assert!(
        msg.contains("reading the crash log") && msg.contains("not found"),
        "{msg}"
    );
}

#[tokio::test]
async fn capture_streams_logcat_into_the_session_folder_until_stopped() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["logcat", "-v", "threadtime"],
        vec![json!({"stdout": "01-02 10:00:00.000  1000  1000 I Shop: hello\n", "hold": true})],
    );
    let client = fake.start(&[]).await;
    let session = tempfile::tempdir().unwrap();
    let dir = session.path().display().to_string();
    let started = support::call_ok(
        &client,
        log::START_CAPTURE,
        json!({"session_id": "s1", "session_dir": dir, "device": DEV}),
    )
    .await;
    assert_eq!(started, json!({"status": "running"}));
    let again = support::call_err(
        &client,
        log::START_CAPTURE,
        json!({"session_id": "s1", "session_dir": dir, "device": DEV}),
    )
    .await;
    assert!(again.contains("already running"), "{again}");

    let log_file = session.path().join("logcat.txt");
    wait_until(|| {
        std::fs::read_to_string(&log_file)
            .unwrap_or_default()
            .contains("I Shop: hello")
    })
    .await;
    let listed = support::call_ok(&client, log::LIST_CAPTURES, json!({})).await;
    assert_eq!(
        listed,
        json!({"captures": [{"session_id": "s1", "status": "running"}]})
    );

    let stopped = support::call_ok(&client, log::STOP_CAPTURE, json!({"session_id": "s1"})).await;
    assert_eq!(stopped["stopped"], true);
    assert_eq!(stopped["status"], "stopped");
    assert_eq!(stopped["log_path"], log_file.display().to_string());
    let listed = support::call_ok(&client, log::LIST_CAPTURES, json!({})).await;
    assert_eq!(listed["captures"][0]["status"], "stopped");
    let unknown = support::call_ok(&client, log::STOP_CAPTURE, json!({"session_id": "nope"})).await;
    assert_eq!(unknown["stopped"], false);
}

#[tokio::test]
async fn a_dead_logcat_makes_the_capture_failed_with_a_reason() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["logcat", "-v", "threadtime"],
        vec![json!({"stderr": "error: closed\n", "exit": 1})],
    );
    let client = fake.start(&[]).await;
    let session = tempfile::tempdir().unwrap();
    let dir = session.path().display().to_string();
    support::call_ok(
        &client,
        log::START_CAPTURE,
        json!({"session_id": "s2", "session_dir": dir, "device": DEV}),
    )
    .await;
    let mut listed = Value::Null;
    for _ in 0..100 {
        listed = support::call_ok(&client, log::LIST_CAPTURES, json!({})).await;
        if listed["captures"][0]["status"] == "failed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(listed["captures"][0]["status"], "failed", "{listed}");
    let reason = listed["captures"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("logcat process exited"), "{reason}");
    let stopped = support::call_ok(&client, log::STOP_CAPTURE, json!({"session_id": "s2"})).await;
    assert_eq!(stopped["stopped"], false);
    assert_eq!(stopped["status"], "failed");
    assert!(stopped["reason"].as_str().unwrap().contains("exited"));

    let msg = support::call_err(
        &client,
        log::START_CAPTURE,
        json!({"session_id": "s3", "session_dir": "relative/dir", "device": DEV}),
    )
    .await;
    assert!(msg.contains("absolute"), "{msg}");
}

async fn wait_until(mut cond: impl FnMut() -> bool) {
    for _ in 0..200 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("condition not met in 5 s");
}
