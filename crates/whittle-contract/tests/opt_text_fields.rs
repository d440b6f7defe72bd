//! The `#[opt_text]` marker of `contract_type!`: a server's free-text note (why an action
//! failed, where a log went) is read leniently, left out of the JSON when absent, and
//! published as an optional field, exactly as the attributes it stands for did.
use serde_json::{json, Value};
use whittle_contract::log::{CaptureState, StopCaptureResult};
use whittle_contract::mobile::Device;
use whittle_contract::ui::TapElementResult;

#[test]
fn an_absent_or_null_note_is_none_and_stays_out_of_the_json() {
    for answer in [
        json!({"tapped": true}),
        json!({"tapped": true, "reason": null}),
    ] {
        let read: TapElementResult = serde_json::from_value(answer).unwrap();
        assert_eq!(read.reason, None);
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            json!({"tapped": true})
        );
    }
}

#[test]
fn a_note_of_another_scalar_type_reads_as_its_text_and_a_structure_is_refused() {
    let answer = json!({"stopped": false, "status": "failed", "reason": 7, "error": true,
        "log_path": "/tmp/log.txt"});
    let read: StopCaptureResult = serde_json::from_value(answer).unwrap();
    assert_eq!(read.status, CaptureState::Failed);
    assert_eq!(read.reason.as_deref(), Some("7"));
    assert_eq!(read.error.as_deref(), Some("true"));
    assert_eq!(read.log_path.as_deref(), Some("/tmp/log.txt"));
    let device: Device =
        serde_json::from_value(json!({"id": "emulator-5554", "version": 14})).unwrap();
    assert_eq!(device.version.as_deref(), Some("14"));
    for bad in [json!({"a": 1}), json!(["x"])] {
        let answer = json!({"tapped": false, "reason": bad});
        assert!(serde_json::from_value::<TapElementResult>(answer).is_err());
    }
}

#[test]
fn a_note_is_published_as_an_optional_string() {
    let schema = serde_json::to_value(schemars::schema_for!(StopCaptureResult)).unwrap();
    assert_eq!(schema["required"], json!(["stopped", "status"]));
    for field in ["reason", "error", "log_path"] {
        assert_eq!(
            schema["properties"][field]["type"],
            json!(["string", "null"]),
            "{field}"
        );
    }
    let device = serde_json::to_value(schemars::schema_for!(Device)).unwrap();
    assert_eq!(device["required"], json!(["id"]));
    let version: &Value = &device["properties"]["version"];
    assert!(version["description"]
        .as_str()
        .unwrap()
        .contains("OS version"));
}
