//! `whittle-servers adb` typing text over real stdio MCP, driving `fake-adb`: what `input
//! text` cannot type, the ADBKeyBoard route for the rest, and that the text is never
//! echoed in an answer or an error (its escaping is in `adb_tools.rs`).
use crate::support;

use serde_json::json;
use support::{call, err, ok, words, FakeAdb, DEV, SCREEN};
use whittle_contract::ui;

#[tokio::test]
async fn untypeable_text_is_refused_before_touching_the_device_and_not_echoed() {
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    fake.on_dev(
        &["shell", "ime", "list", "-a", "-s"],
        vec![json!({"stdout": "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n"})],
    );
    let client = fake.start(&[]).await;
    let r = call(
        &client,
        ui::INPUT_TEXT,
        support::into_email("Conclusão secreta"),
    )
    .await;
    let v = ok(&r);
    assert_eq!(v["ok"], false);
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("text_not_typeable"), "{reason}");
    assert!(
        reason.contains("ADBKeyBoard"),
        "the reason says how to fix it: {reason}"
    );
    assert!(!format!("{r:?}").contains("secreta"));
    assert_eq!(
        fake.dev_calls(),
        [words(&["shell", "ime", "list", "-a", "-s"])],
        "only the input methods were listed: nothing tapped or typed"
    );

    let r = call(
        &client,
        ui::INPUT_TEXT,
        json!({"device": DEV, "strategies": [{"by": "text", "value": "Secret"}], "text": "abc"}),
    )
    .await;
    assert_eq!(ok(&r), json!({"ok": false, "reason": "element_not_found"}));
    assert!(
        fake.dev_calls().iter().all(|c| c[1] != "input"),
        "nothing typed when the field is missing"
    );
}

#[tokio::test]
async fn a_failed_typing_step_does_not_echo_the_text() {
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    fake.on_dev(&support::TAP_EMAIL, vec![json!({})]);
    fake.on_dev(
        &["shell", "input", "text", "'hunter2'"],
        vec![json!({"stderr": "Error: cannot inject text hunter2\n", "exit": 1})],
    );
    let client = fake.start(&[]).await;
    let r = call(&client, ui::INPUT_TEXT, support::into_email("hunter2")).await;
    let msg = err(&r);
    assert!(
        msg.contains("typing text") && msg.contains("withheld"),
        "{msg}"
    );
    assert!(!format!("{r:?}").contains("hunter2"));
}

#[tokio::test]
async fn non_ascii_text_goes_through_adb_keyboard_and_the_keyboard_is_restored() {
    let text = "Conclusão 购物 '; reboot";
    let latin = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME";
    let b64 = whittle_servers::adb::adb_keyboard::encode(text);
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    fake.on_dev(
        &["shell", "ime", "list", "-a", "-s"],
        vec![json!({"stdout": format!("{latin}\ncom.android.adbkeyboard/.AdbIME\n")})],
    );
    fake.on_dev(
        &["shell", "settings", "get", "secure", "default_input_method"],
        vec![json!({"stdout": format!("{latin}\n")})],
    );
    fake.on_dev(&support::TAP_EMAIL, vec![json!({})]);
    let adb_ime = "com.android.adbkeyboard/.AdbIME";
    fake.on_dev(&["shell", "ime", "enable", adb_ime], vec![json!({})]);
    fake.on_dev(&["shell", "ime", "set", adb_ime], vec![json!({})]);
    let broadcast = [
        "shell",
        "am",
        "broadcast",
        "-a",
        "ADB_INPUT_B64",
        "--es",
        "msg",
        &b64,
    ];
    fake.on_dev(&broadcast, vec![json!({})]);
    fake.on_dev(&["shell", "ime", "set", latin], vec![json!({})]);
    let client = fake.start(&[]).await;
    let v = support::call_ok(&client, ui::INPUT_TEXT, support::into_email(text)).await;
    assert_eq!(v, json!({"ok": true}));
    let calls = fake.dev_calls();
    let pos = |args: &[&str]| {
        calls
            .iter()
            .position(|c| c[..] == words(args)[..])
            .unwrap_or_else(|| panic!("{args:?} not called: {calls:?}"))
    };
    let tap = pos(&support::TAP_EMAIL);
    let switch = pos(&["shell", "ime", "set", adb_ime]);
    let typed = pos(&broadcast);
    let restored = pos(&["shell", "ime", "set", latin]);
    assert!(
        tap < typed && switch < typed && typed < restored,
        "{calls:?}"
    );
    assert!(
        calls
            .iter()
            .all(|c| !c.iter().any(|a| a.contains("reboot") || a.contains("购物"))),
        "the text only ever travels base64-encoded"
    );
}
