//! The decode policy per field: lenient where nothing is decided, strict where a verdict is.
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{json, Value};
use whittle_contract::analyzer::{SessionAnalysis, Signature};
use whittle_contract::log::{CaptureList, RecentCrashes, StopCaptureResult};
use whittle_contract::mobile::{AppList, DeviceList};
use whittle_contract::report::{RecordStepResult, SessionPath};
use whittle_contract::ui::{Hierarchy, InputTextResult, TapElementResult, WaitForElementResult};
use whittle_core::model::CrashKind;

use super::*;

fn text(json: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(json)])
}

/// The field a strict failure names, and its whole message.
fn strict_failure<T: DeserializeOwned + Serialize + std::fmt::Debug>(
    answer: Value,
) -> (Option<String>, String) {
    match decode::<T>(&CallToolResult::structured(answer)) {
        Err(McpErrorKind::BadResult(bad)) => (bad.field.clone(), bad.to_string()),
        other => panic!("expected a strict failure, got {other:?}"),
    }
}

fn tolerated<T: DeserializeOwned + Serialize>(result: &CallToolResult) -> Vec<String> {
    decode::<T>(result)
        .unwrap_or_else(|e| panic!("{e}"))
        .tolerated
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn reads_structured_content_then_text() {
    let structured = CallToolResult::structured(json!({"elements": []}));
    let d = decode::<Hierarchy>(&structured).unwrap();
    assert!(d.value.elements.is_empty() && d.tolerated.is_empty());
    let d = decode::<Hierarchy>(&text(r#"{"elements":[]}"#)).unwrap();
    assert!(d.tolerated.is_empty(), "text only is within the contract");
}

#[test]
fn names_the_bad_field() {
    let (field, msg) = strict_failure::<Hierarchy>(json!({"elements": [{"bounds": "wide"}]}));
    assert_eq!(field.as_deref(), Some("elements[0].bounds"), "{msg}");
}

#[test]
fn surfaces_is_error() {
    let r = CallToolResult::error(vec![ContentBlock::text("no such device")]);
    assert_eq!(
        decode::<Hierarchy>(&r).unwrap_err(),
        McpErrorKind::ToolError("no such device".into())
    );
}

/// A lab host is untrusted: the holder and device of its `device_busy` record come in
/// bounded and without control characters, so no error built from them carries them.
#[test]
fn a_device_busy_record_is_read_made_safe_to_show() {
    let mut r = CallToolResult::error(vec![ContentBlock::text("busy")]);
    let evil = format!("\u{1b}[2J{}", "\u{1b}[31mX".repeat(40_000));
    r.structured_content = Some(json!({"error": "device_busy", "device": "sim-1\u{1b}[K",
        "holder": evil}));
    let Some(McpErrorKind::DeviceBusy { device, holder }) = tool_error(&r) else {
        panic!("not read as device_busy");
    };
    assert_eq!(device, "sim-1?[K");
    assert!(!holder.chars().any(char::is_control), "{holder:?}");
    assert!(holder.chars().count() <= crate::device_lease::MAX_HOST_TEXT_CHARS + 1);
    let shown = McpErrorKind::DeviceBusy { device, holder }.to_string();
    assert!(shown.len() < 1024 && !shown.contains('\u{1b}'), "{shown}");
}

/// Issue 15, failure #1: a log server whose `ts` is epoch seconds ended every run.
#[test]
fn a_numeric_ts_is_read_and_tolerated_not_a_failure() {
    let answer = r#"{"count": 1, "crashes": [{"record_id": "r1", "ts": 1715766000,
        "kind": "java", "process": "com.x", "stack": "java.lang.IllegalStateException"}]}  "#;
    let d = decode::<RecentCrashes>(&text(answer)).unwrap();
    assert_eq!(d.value.crashes[0].ts, "1715766000");
    assert_eq!(d.value.crashes[0].record_id, "r1");
    assert_eq!(
        d.tolerated
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["crashes[].ts: a number where text was expected, converted"]
    );
}

#[test]
fn ts_may_be_absent_or_null_and_unknown_keys_are_ignored() {
    let answer = json!({"crashes": [
        {"record_id": 12, "kind": "native", "process": "com.x", "stack": "signal 11", "pid": 4242},
        {"record_id": 13, "ts": null, "kind": "anr", "process": "com.x", "stack": "ANR in com.x"}
    ], "device": "emulator-5554"});
    let d = decode::<RecentCrashes>(&CallToolResult::structured(answer.clone())).unwrap();
    let ids: Vec<_> = d
        .value
        .crashes
        .iter()
        .map(|c| c.record_id.as_str())
        .collect();
    assert_eq!(ids, ["12", "13"], "an integer identity is its decimal text");
    assert_eq!(d.value.crashes[1].kind, CrashKind::Anr);
    let found = tolerated::<RecentCrashes>(&CallToolResult::structured(answer));
    for needle in [
        "count: missing, default used",
        "crashes[].pid: not in the contract or unusable, ignored",
        "crashes[].record_id: a number where text was expected, converted",
        "crashes[].ts: missing, default used",
        "device: not in the contract or unusable, ignored",
    ] {
        assert!(
            found.iter().any(|f| f == needle),
            "{needle} not in {found:?}"
        );
    }
}

#[test]
fn crash_records_are_strict_where_the_verdict_rests() {
    let crash =
        json!({"record_id": "r1", "ts": "t", "kind": "java", "process": "com.x", "stack": "s"});
    for (field, broken) in [
        ("record_id", json!(1.5)),
        ("record_id", json!("")),
        ("record_id", Value::Null),
        ("kind", json!("crash")),
        ("process", json!(7)),
        ("stack", json!(["at a"])),
    ] {
        let mut c = crash.clone();
        c[field] = broken.clone();
        let (at, msg) = strict_failure::<RecentCrashes>(json!({"count": 1, "crashes": [c]}));
        assert_eq!(
            at.as_deref(),
            Some(&*format!("crashes[0].{field}")),
            "{broken}: {msg}"
        );
    }
    for field in ["record_id", "kind", "process", "stack"] {
        let mut c = crash.clone();
        c.as_object_mut().unwrap().remove(field);
        let (at, msg) = strict_failure::<RecentCrashes>(json!({"crashes": [c]}));
        assert_eq!(
            at.as_deref(),
            Some(&*format!("crashes[0].{field}")),
            "{msg}"
        );
        assert!(msg.contains("missing field"), "{msg}");
    }
    let (at, _) = strict_failure::<RecentCrashes>(json!({"count": 0}));
    assert_eq!(at.as_deref(), Some("crashes"));
}

#[test]
fn action_and_capture_outcomes_are_strict() {
    let (at, msg) = strict_failure::<TapElementResult>(json!({"tapped": "yes"}));
    assert_eq!(at.as_deref(), Some("tapped"), "{msg}");
    assert!(
        msg.contains("breaks the tool contract at field `tapped`"),
        "{msg}"
    );
    let (at, _) = strict_failure::<TapElementResult>(json!({"reason": "gone"}));
    assert_eq!(at.as_deref(), Some("tapped"));
    let (at, _) = strict_failure::<InputTextResult>(json!({"ok": 1}));
    assert_eq!(at.as_deref(), Some("ok"));
    let (at, _) = strict_failure::<WaitForElementResult>(json!({}));
    assert_eq!(at.as_deref(), Some("found"));
    let (at, _) = strict_failure::<StopCaptureResult>(json!({"stopped": true, "status": "done"}));
    assert_eq!(at.as_deref(), Some("status"));
    let (at, _) = strict_failure::<StopCaptureResult>(json!({"status": "stopped"}));
    assert_eq!(at.as_deref(), Some("stopped"));
    let (at, _) = strict_failure::<CaptureList>(json!({"captures": [{"status": "running"}]}));
    assert_eq!(at.as_deref(), Some("captures[0].session_id"));
    // A reason is only shown: a number is converted, not a failure.
    let d = decode::<TapElementResult>(&CallToolResult::structured(
        json!({"tapped": false, "reason": 404}),
    ))
    .unwrap();
    assert_eq!(d.value.reason.as_deref(), Some("404"));
}

#[test]
fn fingerprints_and_groups_are_strict() {
    let sig = json!({"fingerprint": "0123456789ab", "label": "NPE", "kind": "java",
        "top_frames": ["a.B.c"], "stable": true});
    assert!(tolerated::<Signature>(&CallToolResult::structured(sig.clone())).is_empty());
    for (field, broken) in [
        ("fingerprint", json!("0123456789AB")),
        ("fingerprint", json!("abc")),
        ("label", json!(null)),
        ("top_frames", json!("a.B.c")),
        ("stable", json!("true")),
    ] {
        let mut s = sig.clone();
        s[field] = broken.clone();
        let (at, msg) = strict_failure::<Signature>(s);
        assert_eq!(at.as_deref(), Some(field), "{broken}: {msg}");
    }
    let mut s = sig.clone();
    s.as_object_mut().unwrap().remove("fingerprint");
    let (at, _) = strict_failure::<Signature>(s);
    assert_eq!(at.as_deref(), Some("fingerprint"), "absent is not null");
    // `stable` missing means false (the contract says so) and is said.
    let mut s = sig;
    s.as_object_mut().unwrap().remove("stable");
    let d = decode::<Signature>(&CallToolResult::structured(s)).unwrap();
    assert!(!d.value.stable);
    assert_eq!(d.tolerated[0].to_string(), "stable: missing, default used");

    let group = json!({"fingerprint": null, "label": "L", "kind": "java", "process": "p",
        "crash_ids": ["c1"], "step_index": "4", "repro_path": [1, 2]});
    let d = decode::<SessionAnalysis>(&CallToolResult::structured(
        json!({"groups": [group.clone()]}),
    ))
    .unwrap();
    assert_eq!((d.value.unique, d.value.groups[0].step_index), (0, 4));
    let mut g = group;
    g["repro_path"] = json!(["1"]);
    let (at, _) = strict_failure::<SessionAnalysis>(json!({"unique": 1, "groups": [g]}));
    assert_eq!(at.as_deref(), Some("groups[0].repro_path[0]"));
}

#[test]
fn reports_and_session_paths_are_strict_where_files_are_written() {
    let (at, _) = strict_failure::<SessionPath>(json!({"session_id": "s"}));
    assert_eq!(at.as_deref(), Some("session_dir"));
    // The evidence step's number is not used by the run.
    let d = decode::<RecordStepResult>(&CallToolResult::structured(json!({"index": "3"}))).unwrap();
    assert_eq!(d.value.index, 3);
}

#[test]
fn devices_and_apps_tolerate_what_decides_nothing() {
    let devices = json!({"devices": [{"id": "emulator-5554", "platform": "android",
        "version": "16", "state": "online"}]});
    let found = tolerated::<DeviceList>(&CallToolResult::structured(devices));
    assert!(
        found.contains(&"devices[].name: missing, default used".to_string()),
        "{found:?}"
    );
    // `version` is mobile-mcp's own field and the contract's optional one: read, not noted.
    assert!(
        !found.iter().any(|f| f.starts_with("devices[].version")),
        "{found:?}"
    );
    let (at, _) = strict_failure::<DeviceList>(json!({"devices": [{"name": "Pixel"}]}));
    assert_eq!(at.as_deref(), Some("devices[0].id"));

    let apps = json!({"apps": [{"package": "com.x", "version_code": "230", "version_name": 2}]});
    let d = decode::<AppList>(&CallToolResult::structured(apps)).unwrap();
    let app = &d.value.apps[0];
    assert_eq!(
        (app.version_code, app.version_name.as_deref()),
        (Some(230), Some("2"))
    );
    assert!(!app.system);
    let (at, _) = strict_failure::<AppList>(json!({"apps": [{"package": null}]}));
    assert_eq!(at.as_deref(), Some("apps[0].package"));
}

#[test]
fn the_json_block_is_found_among_extra_content_blocks() {
    let json_text = r#"{"tapped": true}"#;
    let with_image = CallToolResult::success(vec![
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::text(format!("{json_text}\n  ")),
    ]);
    let d = decode::<TapElementResult>(&with_image).unwrap();
    assert!(d.value.tapped);
    assert_eq!(
        d.tolerated
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["(answer) no structuredContent; the JSON was found among 2 content blocks"]
    );
    let prose_first = CallToolResult::success(vec![
        ContentBlock::text("Tapped the element."),
        ContentBlock::text("[1, 2]"),
        ContentBlock::text(json_text),
    ]);
    assert!(
        decode::<TapElementResult>(&prose_first)
            .unwrap()
            .value
            .tapped
    );
    let no_json = CallToolResult::success(vec![ContentBlock::text("Tapped the element.")]);
    assert!(matches!(
        decode::<TapElementResult>(&no_json),
        Err(McpErrorKind::BadResult(BadAnswer { field: None, .. }))
    ));
    // structuredContent wins over whatever the text blocks say.
    let mut both = CallToolResult::structured(json!({"tapped": false}));
    both.content = vec![ContentBlock::text(r#"{"tapped": true}"#)];
    assert!(!decode::<TapElementResult>(&both).unwrap().value.tapped);
}

#[test]
fn mobile_mcps_unflagged_errors_are_errors() {
    let r = text("Device \"emulator-5554\" not found. Use the mobile_list_available_devices tool to see available devices. Please fix the issue and try again.");
    assert!(matches!(tool_error(&r), Some(McpErrorKind::ToolError(m)) if m.contains("not found")));
    assert!(tool_error(&text("Launched app com.x")).is_none());
}

/// What our own servers send is exactly the contract: nothing is ever tolerated.
#[test]
fn answers_written_from_the_contract_types_tolerate_nothing() {
    use whittle_contract::log::{Capture, CaptureState, LogCrash};
    use whittle_contract::mobile::{App, Device};
    use whittle_contract::ui::UiElement;

    fn clean<T: DeserializeOwned + Serialize>(value: &T) {
        let r = CallToolResult::structured(serde_json::to_value(value).unwrap());
        let d = decode::<T>(&r).unwrap();
        assert!(d.tolerated.is_empty(), "{:?}", d.tolerated);
    }
    clean(&RecentCrashes {
        count: 1,
        crashes: vec![LogCrash {
            record_id: "r".into(),
            ts: String::new(),
            kind: CrashKind::Java,
            process: "p".into(),
            stack: "s".into(),
        }],
    });
    clean(&CaptureList {
        captures: vec![Capture {
            session_id: "s".into(),
            status: CaptureState::Failed,
            reason: Some("r".into()),
        }],
    });
    clean(&StopCaptureResult {
        stopped: true,
        status: CaptureState::Stopped,
        reason: None,
        error: None,
        log_path: Some("/l".into()),
    });
    clean(&DeviceList {
        devices: vec![Device {
            id: "d".into(),
            name: String::new(),
            platform: "android".into(),
            device_type: "emulator".into(),
            state: String::new(),
            version: Some("14".into()),
        }],
    });
    for (name, code) in [(None, None), (Some("1.0".to_string()), Some(7))] {
        clean(&AppList {
            apps: vec![App {
                package: "p".into(),
                system: true,
                version_name: name,
                version_code: code,
            }],
        });
    }
    let element: UiElement = serde_json::from_value(json!({"bounds": [0, 0, 1, 1]})).unwrap();
    clean(&Hierarchy {
        elements: vec![element],
    });
    clean(&Signature {
        fingerprint: None,
        label: "l".into(),
        kind: CrashKind::Native,
        top_frames: vec![],
        stable: false,
        canonical_key: None,
    });
    clean(&TapElementResult {
        tapped: false,
        reason: Some("element_not_found".into()),
    });
}
