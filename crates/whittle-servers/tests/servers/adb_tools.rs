//! `whittle-servers adb` over real stdio MCP, driving `fake-adb`: the exact adb commands
//! each tool issues, and what it makes of adb's answers.
use crate::support;

use serde_json::json;
use support::{words, FakeAdb, DEV, PKG, SCREEN};
use whittle_contract::{log, mobile, ui};

#[tokio::test]
async fn serves_exactly_the_mobile_ui_and_log_tools() {
    let fake = FakeAdb::new();
    let client = fake.start(&[]).await;
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    let mut expected: Vec<String> = [mobile::TOOLS, ui::TOOLS, ui::OPTIONAL_TOOLS, log::TOOLS]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    assert!(fake.calls().is_empty(), "listing tools touches no device");
}

#[tokio::test]
async fn devices_come_from_adb_devices_and_serial_restricts_them() {
    let mut fake = FakeAdb::new();
    fake.on(
        &["devices", "-l"],
        vec![json!({"stdout": "List of devices attached\n\
            emulator-5554 device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 transport_id:1\n\
            R58M123ABC unauthorized usb:1-1 transport_id:2\n\n"})],
    );
    fake.on_dev(
        &["shell", "getprop", "ro.build.version.release"],
        vec![json!({"stdout": "14\n"})],
    );
    let client = fake.start(&[]).await;
    let v = support::call_ok(&client, mobile::LIST_DEVICES, json!({})).await;
    // The Android version is read from the online device only (an unauthorized one
    // cannot answer).
    assert_eq!(
        v["devices"],
        json!([
            {"id": DEV, "name": "sdk gphone64 x86 64", "platform": "android", "type": "emulator", "state": "online", "version": "14"},
            {"id": "R58M123ABC", "name": "R58M123ABC", "platform": "android", "type": "real", "state": "unauthorized"}
        ])
    );

    let only = fake.start(&["--serial", "R58M123ABC"]).await;
    let v = support::call_ok(&only, mobile::LIST_DEVICES, json!({})).await;
    assert_eq!(v["devices"].as_array().unwrap().len(), 1);
    assert_eq!(v["devices"][0]["id"], "R58M123ABC");
    let msg = support::call_err(
        &only,
        mobile::TERMINATE_APP,
        json!({"device": DEV, "packageName": PKG}),
    )
    .await;
    assert!(msg.contains("--serial"), "{msg}");
}

#[tokio::test]
async fn launch_and_terminate_issue_monkey_and_force_stop() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &[
            "shell",
            "monkey",
            "-p",
            PKG,
            "-c",
            "android.intent.category.LAUNCHER",
            "1",
        ],
        vec![json!({"stdout": "  bash arg: -p\nEvents injected: 1\n"})],
    );
    fake.on_dev(&["shell", "am", "force-stop", PKG], vec![json!({})]);
    fake.on_dev(
        &[
            "shell",
            "monkey",
            "-p",
            "com.not.installed",
            "-c",
            "android.intent.category.LAUNCHER",
            "1",
        ],
        vec![json!({"stdout": "** No activities found to run, monkey aborted.\n"})],
    );
    let client = fake.start(&[]).await;
    let app = |p: &str| json!({"device": DEV, "packageName": p});
    support::call_ok(&client, mobile::TERMINATE_APP, app(PKG)).await;
    support::call_ok(&client, mobile::LAUNCH_APP, app(PKG)).await;
    let msg = support::call_err(&client, mobile::LAUNCH_APP, app("com.not.installed")).await;
    assert!(msg.contains("no launcher activity"), "{msg}");
    assert_eq!(
        fake.dev_calls(),
        [
            words(&["shell", "am", "force-stop", PKG]),
            words(&[
                "shell",
                "monkey",
                "-p",
                PKG,
                "-c",
                "android.intent.category.LAUNCHER",
                "1"
            ]),
            words(&[
                "shell",
                "monkey",
                "-p",
                "com.not.installed",
                "-c",
                "android.intent.category.LAUNCHER",
                "1"
            ]),
        ]
    );
}

#[tokio::test]
async fn hostile_package_and_device_ids_never_reach_adb() {
    let fake = FakeAdb::new();
    let client = fake.start(&[]).await;
    for (device, package) in [
        (DEV, "com.example.shop; reboot"),
        (DEV, "com.example.$(id)"),
        ("-d", PKG),
        ("emulator-5554 ; reboot", PKG),
    ] {
        for tool in [mobile::LAUNCH_APP, mobile::TERMINATE_APP] {
            support::call_err(
                &client,
                tool,
                json!({"device": device, "packageName": package}),
            )
            .await;
        }
    }
    assert!(fake.calls().is_empty(), "{:?}", fake.calls());
}

#[tokio::test]
async fn back_is_keyevent_4_and_unknown_buttons_are_refused() {
    let mut fake = FakeAdb::new();
    fake.on_dev(&["shell", "input", "keyevent", "4"], vec![json!({})]);
    let client = fake.start(&[]).await;
    support::call_ok(
        &client,
        mobile::PRESS_BUTTON,
        json!({"device": DEV, "button": "BACK"}),
    )
    .await;
    let msg = support::call_err(
        &client,
        mobile::PRESS_BUTTON,
        json!({"device": DEV, "button": "POWER"}),
    )
    .await;
    assert!(msg.contains("not supported"), "{msg}");
    assert_eq!(
        fake.dev_calls(),
        [words(&["shell", "input", "keyevent", "4"])]
    );
}

#[tokio::test]
async fn tap_lands_at_the_centre_of_the_element_found() {
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    fake.on_dev(&["shell", "input", "tap", "300", "1100"], vec![json!({})]);
    let client = fake.start(&[]).await;
    let tap = |by: &str, value: &str| json!({"device": DEV, "strategies": [{"by": by, "value": value}], "settle_ms": 0});
    let v = support::call_ok(&client, ui::TAP_ELEMENT, tap("text", "Checkout")).await;
    assert_eq!(v, json!({"tapped": true}));
    let v = support::call_ok(&client, ui::TAP_ELEMENT, tap("text", "Secret")).await;
    assert_eq!(v, json!({"tapped": false, "reason": "element_not_found"}));
    let dump = words(&["shell", "uiautomator", "dump", "/sdcard/window_dump.xml"]);
    let cat = words(&["exec-out", "cat", "/sdcard/window_dump.xml"]);
    assert_eq!(
        fake.dev_calls(),
        [
            dump.clone(),
            cat.clone(),
            words(&["shell", "input", "tap", "300", "1100"]),
            dump,
            cat
        ]
    );
}

#[tokio::test]
async fn hierarchy_retries_a_dump_that_fails_during_an_animation() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["shell", "uiautomator", "dump", "/sdcard/window_dump.xml"],
        vec![
            json!({"stdout": "ERROR: could not get idle state.\n"}),
            json!({"stdout": "UI hierchary dumped to: /sdcard/window_dump.xml\n"}),
        ],
    );
    fake.on_dev(
        &["exec-out", "cat", "/sdcard/window_dump.xml"],
        vec![json!({"stdout": SCREEN})],
    );
    let client = fake.start(&[]).await;
    let v = support::call_ok(&client, ui::GET_HIERARCHY, json!({"device": DEV})).await;
    let els = v["elements"].as_array().unwrap();
    assert_eq!(els.len(), 4);
    assert_eq!(els[1]["resource_id"], "com.example.shop:id/email");
    assert_eq!(els[1]["bounds"], json!([40, 400, 1040, 520]));
    assert_eq!(els[3]["visible"], false);
    assert_eq!(fake.dev_calls().len(), 3, "dump, dump again, cat");
}

#[tokio::test]
async fn a_dump_failing_three_times_is_an_error_not_a_missing_element() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["shell", "uiautomator", "dump", "/sdcard/window_dump.xml"],
        vec![json!({"stdout": "ERROR: null root node returned by UiTestAutomationBridge.\n"})],
    );
    let client = fake.start(&[]).await;
    let strategies = json!([{"by": "text", "value": "Checkout"}]);
    let msg = support::call_err(
        &client,
        ui::TAP_ELEMENT,
        json!({"device": DEV, "strategies": strategies, "settle_ms": 0}),
    )
    .await;
    assert!(
        msg.contains("failed 3 times") && msg.contains("null root node"),
        "{msg}"
    );
    assert_eq!(fake.dev_calls().len(), 3);
    let msg = support::call_err(
        &client,
        ui::WAIT_FOR_ELEMENT,
        json!({"device": DEV, "strategies": strategies, "timeout_ms": 0}),
    )
    .await;
    assert!(msg.contains("failed 3 times"), "{msg}");
}

#[tokio::test]
async fn wait_for_element_finds_or_times_out() {
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    let client = fake.start(&[]).await;
    let wait = |value: &str| json!({"device": DEV, "strategies": [{"by": "label", "value": value}], "timeout_ms": 0});
    assert_eq!(
        support::call_ok(&client, ui::WAIT_FOR_ELEMENT, wait("E-mail")).await,
        json!({"found": true})
    );
    assert_eq!(
        support::call_ok(&client, ui::WAIT_FOR_ELEMENT, wait("Nope")).await,
        json!({"found": false})
    );
}

#[tokio::test]
async fn typed_text_is_escaped_for_the_device_shell_and_never_run_locally() {
    let marker = tempfile::tempdir().unwrap();
    let marker_path = marker.path().join("pwned");
    let text = format!(
        "; rm -rf / && $(touch {m}) `touch {m}` 'q' \"d\" %s",
        m = marker_path.display()
    );
    let mut fake = FakeAdb::new();
    fake.screen(SCREEN);
    fake.on_dev(&support::TAP_EMAIL, vec![json!({})]);
    let expected_words = whittle_servers::adb::input_escape::input_text_words(&text).unwrap();
    for w in &expected_words {
        fake.on_dev(&["shell", "input", "text", w], vec![json!({})]);
    }
    let client = fake.start(&[]).await;
    let v = support::call_ok(&client, ui::INPUT_TEXT, support::into_email(&text)).await;
    assert_eq!(v, json!({"ok": true}));
    let calls = fake.dev_calls();
    assert_eq!(calls[2], words(&support::TAP_EMAIL), "focus first");
    let typed: Vec<String> = calls[3..].iter().map(|c| c[3].clone()).collect();
    assert!(calls[3..]
        .iter()
        .all(|c| c[..3] == words(&["shell", "input", "text"])));
    assert_eq!(typed, expected_words);
    // The exact escaping of the dangerous part: one single-quoted word, spaces as %s, the
    // literal "%s" typed as "%" then "s".
    assert!(
        typed[0].starts_with("';%srm%s-rf%s/%s&&%s$(touch%s"),
        "{}",
        typed[0]
    );
    assert!(typed[0].contains(r"'\''q'\''%s"), "{}", typed[0]);
    assert!(typed[0].ends_with("%s%'"), "{}", typed[0]);
    assert_eq!(typed.len(), 2);
    assert_eq!(typed[1], "'s'");
    assert!(!marker_path.exists(), "no shell ran the text");
}

#[tokio::test]
async fn screenshot_is_written_with_the_size_from_its_header() {
    let mut png = std::io::Cursor::new(Vec::new());
    image::RgbImage::new(36, 64)
        .write_to(&mut png, image::ImageFormat::Png)
        .unwrap();
    let png = png.into_inner();
    let mut fake = FakeAdb::new();
    fake.file("screen.png", &png);
    fake.on_dev(
        &["exec-out", "screencap", "-p"],
        vec![
            json!({"stdout_file": "screen.png"}),
            json!({"stdout": "screencap: permission denied\n"}),
        ],
    );
    let client = fake.start(&[]).await;
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("shot.png").display().to_string();
    let v = support::call_ok(
        &client,
        mobile::SAVE_SCREENSHOT,
        json!({"device": DEV, "saveTo": path}),
    )
    .await;
    assert_eq!(v, json!({"path": path, "width": 36, "height": 64}));
    assert_eq!(std::fs::read(&path).unwrap(), png);

    let other = out.path().join("second.png");
    let msg = support::call_err(
        &client,
        mobile::SAVE_SCREENSHOT,
        json!({"device": DEV, "saveTo": other}),
    )
    .await;
    assert!(msg.contains("not return a PNG"), "{msg}");
    assert!(!other.exists());
    let msg = support::call_err(
        &client,
        mobile::SAVE_SCREENSHOT,
        json!({"device": DEV, "saveTo": "relative.png"}),
    )
    .await;
    assert!(msg.contains("absolute"), "{msg}");
}

#[tokio::test]
async fn apps_have_the_system_flag_and_versions_of_the_others() {
    let mut fake = FakeAdb::new();
    fake.on_dev(
        &["shell", "pm", "list", "packages", "-f"],
        vec![json!({"stdout": "package:/data/app/~~a==/com.example.shop-b==/base.apk=com.example.shop\n\
                               package:/system/priv-app/Settings/Settings.apk=com.android.settings\n"})],
    );
    fake.on_dev(
        &["shell", "pm", "list", "packages", "-s"],
        vec![json!({"stdout": "package:com.android.settings\n"})],
    );
    fake.on_dev(
        &["shell", "dumpsys", "package", PKG],
        vec![json!({"stdout": "Packages:\n  Package [com.example.shop] (1):\n    versionCode=230 minSdk=24\n    versionName=2.3.0\n"})],
    );
    let client = fake.start(&[]).await;
    let v = support::call_ok(&client, mobile::LIST_APPS, json!({"device": DEV})).await;
    assert_eq!(
        v["apps"],
        json!([
            {"package": "com.android.settings", "system": true},
            {"package": PKG, "system": false, "version_name": "2.3.0", "version_code": 230}
        ])
    );
}
