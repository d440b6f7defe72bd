//! Failure 3 of issue 15 end to end: `whittle-servers adb` over real stdio MCP, with
//! `fake-adb` serving a real `uiautomator dump` (tests/fixtures/uiautomator), taps what a
//! tester names the way they read it, at the point a person would touch.
use crate::support;

use serde_json::json;
use support::{words, FakeAdb, DEV};
use whittle_contract::ui;

const WEATHER: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/uiautomator/window_dump_04_react_native_weather_drawing_order_hint_attrs.xml"
));

fn tap(by: &str, value: &str) -> serde_json::Value {
    json!({"device": DEV, "strategies": [{"by": by, "value": value}], "settle_ms": 0})
}

/// The `input tap` calls fake-adb saw, as (x, y).
fn taps(fake: &FakeAdb) -> Vec<(String, String)> {
    fake.dev_calls()
        .into_iter()
        .filter(|c| c.starts_with(&words(&["shell", "input", "tap"])))
        .map(|c| (c[3].clone(), c[4].clone()))
        .collect()
}

#[tokio::test]
async fn a_trailing_space_a_missing_package_and_a_plain_label_all_get_tapped() {
    let mut fake = FakeAdb::new();
    fake.screen(WEATHER);
    for (x, y) in [
        ("221", "956"),
        ("487", "236"),
        ("540", "1868"),
        ("540", "1470"),
    ] {
        fake.on_dev(&["shell", "input", "tap", x, y], vec![json!({})]);
    }
    let client = fake.start(&[]).await;

    // The dump says "Wind: 16.1mph ENE " (trailing space); the tester wrote what they read.
    let v = support::call_ok(&client, ui::TAP_ELEMENT, tap("text", "Wind: 16.1mph ENE")).await;
    assert_eq!(v, json!({"tapped": true}));
    // "London" is a Text inside the clickable search bar: the bar's centre is tapped.
    let v = support::call_ok(&client, ui::TAP_ELEMENT, tap("text", "London")).await;
    assert_eq!(v, json!({"tapped": true}));
    // A React Native testID named with the app's package prefix.
    let v = support::call_ok(
        &client,
        ui::TAP_ELEMENT,
        tap("identifier", "uk.co.openweather:id/daily"),
    )
    .await;
    assert_eq!(v, json!({"tapped": true}));
    let found = support::call_ok(
        &client,
        ui::WAIT_FOR_ELEMENT,
        json!({"device": DEV, "strategies": [{"by": "text", "value": "Wind:\u{a0}16.1mph ENE"}], "timeout_ms": 0}),
    ).await;
    assert_eq!(found, json!({"found": true}));

    let day = tap("text", "Tue Apr 01");
    let v = support::call_ok(&client, ui::TAP_ELEMENT, day).await;
    assert_eq!(v, json!({"tapped": true}));
    let v = support::call_ok(&client, ui::TAP_ELEMENT, tap("text", "Wind")).await;
    assert_eq!(
        v,
        json!({"tapped": false, "reason": "element_not_found"}),
        "a part of a text is not the text"
    );

    assert_eq!(
        taps(&fake),
        [
            ("221", "956"),
            ("487", "236"),
            // `daily` is a list that nothing clickable holds: its own centre.
            ("540", "1868"),
            ("540", "1470"),
        ]
        .map(|(x, y)| (x.to_string(), y.to_string()))
    );
}
