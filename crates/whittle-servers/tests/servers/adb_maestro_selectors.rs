//! Issue 29 on `whittle-servers adb` over real stdio MCP, driving `fake-adb`: a Maestro
//! selector matched as Maestro matches it (a case-insensitive pattern against text, hint
//! and accessibility text; state filters from the dump's flags), a long press held in
//! place, and typing where the focus is without tapping anything.
use crate::support;

use serde_json::json;
use support::{words, FakeAdb, DEV};
use whittle_contract::ui;

/// A sign-in screen as uiautomator dumps it on Android 8+: a focused e-mail field that
/// shows only its hint, a disabled and an enabled "Sign in", and an unchecked box.
const FORM: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focused="false" password="false" selected="false" bounds="[0,0][1080,1920]"><node index="0" text="" hint="Email address" resource-id="com.example.shop:id/email" class="android.widget.EditText" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focused="true" password="false" selected="false" bounds="[40,400][1040,520]"/><node index="1" text="SIGN IN" resource-id="com.example.shop:id/sign_in_old" class="android.widget.Button" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="true" enabled="false" focused="false" password="false" selected="false" bounds="[40,600][1040,700]"/><node index="2" text="Sign in" resource-id="com.example.shop:id/sign_in" class="android.widget.Button" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focused="false" password="false" selected="false" bounds="[40,800][1040,900]"/><node index="3" text="Remember me" resource-id="com.example.shop:id/remember" class="android.widget.CheckBox" package="com.example.shop" content-desc="" checkable="true" checked="false" clickable="true" enabled="true" focused="false" password="false" selected="false" bounds="[40,1000][1040,1100]"/></node></hierarchy>"#;

fn maestro(by: &str, value: &str, narrowing: serde_json::Value) -> serde_json::Value {
    json!({"device": DEV, "strategies": [{"by": by, "value": value, "maestro": narrowing}], "settle_ms": 0})
}

#[tokio::test]
async fn a_maestro_selector_matches_patterns_hints_and_flags_as_maestro_does() {
    let mut fake = FakeAdb::new();
    fake.screen(FORM);
    fake.on_dev(&["shell", "input", "tap", "540", "460"], vec![json!({})]);
    fake.on_dev(&["shell", "input", "tap", "540", "850"], vec![json!({})]);
    fake.on_dev(&["shell", "input", "tap", "540", "1050"], vec![json!({})]);
    let client = fake.start(&[]).await;
    let tap = |args| support::call_ok(&client, ui::TAP_ELEMENT, args);
    // The field shows nothing but its hint: Maestro's text selector finds it.
    let hint = tap(maestro("text", "email ADDRESS", json!({}))).await;
    assert_eq!(hint, json!({"tapped": true}));
    // "sign in" matches both buttons, case-insensitively; only one is enabled.
    let enabled = tap(maestro("text", "sign in", json!({"enabled": true}))).await;
    assert_eq!(enabled, json!({"tapped": true}));
    // An id pattern, narrowed by a flag the dump reports.
    let unchecked = tap(maestro(
        "identifier",
        ".*remember",
        json!({"checked": false}),
    ))
    .await;
    assert_eq!(unchecked, json!({"tapped": true}));
    let checked = tap(maestro(
        "identifier",
        ".*remember",
        json!({"checked": true}),
    ))
    .await;
    assert_eq!(
        checked,
        json!({"tapped": false, "reason": "element_not_found"})
    );
    // Whittle's own rule is unchanged: no pattern, case counts.
    let literal = tap(
        json!({"device": DEV, "strategies": [{"by": "text", "value": "sign in"}], "settle_ms": 0}),
    )
    .await;
    assert_eq!(
        literal,
        json!({"tapped": false, "reason": "element_not_found"})
    );
    let taps: Vec<_> = fake
        .dev_calls()
        .into_iter()
        .filter(|c| c[1] == "input")
        .collect();
    assert_eq!(
        taps,
        [
            words(&["shell", "input", "tap", "540", "460"]),
            words(&["shell", "input", "tap", "540", "850"]),
            words(&["shell", "input", "tap", "540", "1050"]),
        ]
    );
}

#[tokio::test]
async fn a_long_press_is_held_in_place_and_typing_into_the_focus_taps_nothing() {
    let mut fake = FakeAdb::new();
    fake.screen(FORM);
    let hold = ["shell", "input", "swipe", "540", "850", "540", "850", "800"];
    fake.on_dev(&hold, vec![json!({})]);
    fake.on_dev(&["shell", "input", "text", "'qa'"], vec![json!({})]);
    let client = fake.start(&[]).await;
    let pressed = support::call_ok(
        &client,
        ui::LONG_PRESS_ELEMENT,
        maestro("text", "Sign in", json!({"enabled": true})),
    )
    .await;
    assert_eq!(pressed, json!({"tapped": true}));
    let typed = support::call_ok(
        &client,
        ui::INPUT_TEXT,
        json!({"device": DEV, "strategies": [{"by": "focused", "value": ""}], "text": "qa"}),
    )
    .await;
    assert_eq!(typed, json!({"ok": true}));
    let inputs: Vec<_> = fake
        .dev_calls()
        .into_iter()
        .filter(|c| c[1] == "input")
        .collect();
    assert_eq!(
        inputs,
        [words(&hold), words(&["shell", "input", "text", "'qa'"])]
    );
}
