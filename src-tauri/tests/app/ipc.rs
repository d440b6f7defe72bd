//! The commands as the window calls them: over Tauri's IPC (mock runtime), through the
//! app's capabilities, against a real workspace folder on disk.

use std::fs;
use std::path::Path;

use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};
use whittle_app::state::AppState;

fn write_session(ws: &Path, id: &str, created_at: &str, steps: &[Value], crashes: &[Value]) {
    let dir = ws.join("sessions").join(id);
    fs::create_dir_all(&dir).unwrap();
    let meta = json!({"session_id": id, "name": id.split('_').next_back().unwrap(), "created_at": created_at,
        "status": "failed", "platform": "android", "package": "com.example.shop", "device_id": "sim-1"});
    fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
    let jsonl = |rows: &[Value]| rows.iter().map(|r| format!("{r}\n")).collect::<String>();
    fs::write(dir.join("steps.jsonl"), jsonl(steps)).unwrap();
    fs::write(dir.join("crashes.jsonl"), jsonl(crashes)).unwrap();
}

fn step(index: u32, action: &str, replay: Value) -> Value {
    json!({"index": index, "ts": "2026-05-14T16:04:00+02:00", "action": action, "result": "ok",
        "notes": json!({"replay": replay}).to_string()})
}

/// A workspace with a good session (launch, tap, redacted password, class-keyed tap,
/// tap → crash) and one whose steps.jsonl ends in a truncated line.
fn demo_like_workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let steps = [
        step(1, "Launch app", json!({"action_type": "launch"})),
        step(
            2,
            "Tap Cart",
            json!({"action_type": "tap", "element_key": "com.example.shop:id/btn_cart"}),
        ),
        step(
            3,
            "Type password",
            json!({"action_type": "input_text", "element_key": "com.example.shop:id/password", "input_redacted": true}),
        ),
        step(
            4,
            "Tap banner",
            json!({"action_type": "tap", "element_key": "class:android.widget.ImageView"}),
        ),
        step(
            5,
            "Tap Checkout",
            json!({"action_type": "tap", "element_key": "com.example.shop:id/btn_checkout"}),
        ),
    ];
    let crash = json!({"crash_id": "c1", "ts": "2026-05-14T16:05:00+02:00", "kind": "java",
        "process": "com.example.shop", "label": "NullPointerException in CheckoutActivity",
        "stack": "java.lang.NullPointerException: cart\n\tat com.example.shop.CheckoutActivity.onCreate(CheckoutActivity.java:42)",
        "step_index": 5, "repro_path": [1, 2, 3, 4, 5]});
    write_session(
        ws.path(),
        "2026-05-14_160354_checkout-npe",
        "2026-05-14T16:03:54+02:00",
        &steps,
        &[crash],
    );
    write_session(
        ws.path(),
        "2026-05-16_120000_broken-export",
        "2026-05-16T12:00:00+02:00",
        &steps[..2],
        &[],
    );
    let broken = ws
        .path()
        .join("sessions/2026-05-16_120000_broken-export/steps.jsonl");
    let mut text = fs::read_to_string(&broken).unwrap();
    text.push_str("{\"index\": 3, \"action\": \"Tap");
    fs::write(&broken, text).unwrap();
    ws
}

/// The app (kept alive by the caller) and its main window, as the real app builds them.
fn window(default_workspace: &Path) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = whittle_app::configure(
        mock_builder(),
        AppState::new(default_workspace.to_path_buf()),
    )
    .build(tauri::generate_context!("tauri.conf.json", test = true))
    .unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    (app, window)
}

fn invoke(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.into(),
    };
    get_ipc_response(window, request).map(|body| body.deserialize::<Value>().unwrap())
}

#[test]
fn default_workspace_is_the_configured_one() {
    let ws = demo_like_workspace();
    let (_app, w) = window(ws.path());
    let got = invoke(&w, "default_workspace", json!({})).unwrap();
    assert_eq!(got, json!(ws.path().display().to_string()));
}

#[test]
fn list_sessions_flags_the_malformed_session_without_failing_the_list() {
    let ws = demo_like_workspace();
    let (_app, w) = window(ws.path());
    let got = invoke(&w, "list_sessions", json!({"workspace": ws.path()})).unwrap();
    let list = got.as_array().unwrap();
    let ids: Vec<&str> = list
        .iter()
        .map(|s| s["session_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "2026-05-16_120000_broken-export",
            "2026-05-14_160354_checkout-npe"
        ]
    );
    let broken = &list[0];
    // Typed: the file (and line) and a coded problem the window words itself.
    let problem = &broken["problem"];
    assert_eq!(
        problem["file"], "steps.jsonl",
        "problem names the file: {problem}"
    );
    assert!(problem["problem"]["code"].is_string(), "{problem}");
    let good = &list[1];
    assert_eq!(good["problem"], Value::Null);
    assert_eq!(good["step_count"], 5);
    assert_eq!(good["crash_count"], 1);
    assert_eq!(good["crash_groups"], 1);
}

#[test]
fn list_sessions_of_a_folder_without_sessions_is_a_coded_error() {
    let empty = tempfile::tempdir().unwrap();
    let (_app, w) = window(empty.path());
    let err = invoke(&w, "list_sessions", json!({"workspace": empty.path()})).unwrap_err();
    assert_eq!(err["code"], "workspace_unreadable");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains(&empty.path().display().to_string()),
        "{message}"
    );
    assert!(message.contains("no sessions folder"), "{message}");
    // Typed, so the window words it in its own language.
    assert_eq!(err["path"], empty.path().display().to_string());
    assert_eq!(err["cause"], json!({"kind": "no_sessions_folder"}));
}

#[test]
fn session_detail_shows_the_step_path_with_dispositions() {
    let ws = demo_like_workspace();
    let (_app, w) = window(ws.path());
    let got = invoke(
        &w,
        "session_detail",
        json!({"workspace": ws.path(), "sessionId": "2026-05-14_160354_checkout-npe"}),
    )
    .unwrap();
    assert_eq!(got["package"], "com.example.shop");
    assert_eq!(got["step_count"], 5);
    let crash = &got["crashes"][0];
    assert_eq!(crash["crash_id"], "c1");
    assert_eq!(crash["kind"], "java");
    assert_eq!(crash["repro_path"], json!([1, 2, 3, 4, 5]));
    let steps = crash["plan"]["steps"].as_array().unwrap();
    let roles: Vec<&str> = steps.iter().map(|s| s["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["setup", "replayable", "skipped", "skipped", "replayable"]
    );
    let triggers: Vec<bool> = steps
        .iter()
        .map(|s| s["is_trigger"].as_bool().unwrap())
        .collect();
    assert_eq!(triggers, [false, false, false, false, true]);
    // Typed, so the window words it in its own language.
    assert_eq!(steps[2]["skip_reason"], json!({"code": "input_redacted"}));
    assert_eq!(steps[0]["words"], json!({"kind": "launch"}));
    assert!(steps[1]["skip_reason"].is_null());
    assert_eq!(
        crash["plan"]["coverage"],
        json!({"non_launch": 4, "replayable": 2})
    );
    assert_eq!(crash["plan"]["live_run_allowed"], true);
}

#[test]
fn session_detail_refuses_a_path_as_session_id() {
    let ws = demo_like_workspace();
    let (_app, w) = window(ws.path());
    for bad in ["../../etc", "a/b", ".."] {
        let err = invoke(
            &w,
            "session_detail",
            json!({"workspace": ws.path(), "sessionId": bad}),
        )
        .unwrap_err();
        assert_eq!(err["code"], "invalid_session_id", "{bad}: {err}");
    }
}

#[test]
fn session_detail_of_the_malformed_session_explains_the_line() {
    let ws = demo_like_workspace();
    let (_app, w) = window(ws.path());
    let err = invoke(
        &w,
        "session_detail",
        json!({"workspace": ws.path(), "sessionId": "2026-05-16_120000_broken-export"}),
    )
    .unwrap_err();
    assert_eq!(err["code"], "session_unreadable");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("steps.jsonl") && message.contains("line 3"),
        "{message}"
    );
    assert_eq!(err["id"], "2026-05-16_120000_broken-export");
    assert_eq!(err["cause"]["kind"], "invalid", "{err}");
    assert_eq!(err["cause"]["error"]["file"], "steps.jsonl", "{err}");
    assert_eq!(err["cause"]["error"]["line"], 3, "{err}");
}
