//! The one error type commands return, as the window receives it: `{ code, message }`,
//! a refused run's typed `refusal` beside them, and a code of its own for every error.

use whittle_app::error::AppError;
use whittle_contract::mobile::Device;
use whittle_service::run::RunError;

#[test]
fn serializes_as_code_and_message() {
    let err = AppError::SessionUnreadable {
        id: "2026-05-16_120000_broken-export".into(),
        reason: "steps.jsonl line 4: not valid JSON".into(),
    };
    let json = serde_json::to_value(&err).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "code": "session_unreadable",
            "message": "session 2026-05-16_120000_broken-export cannot be opened: steps.jsonl line 4: not valid JSON",
        })
    );
}

#[test]
fn every_variant_has_its_own_code() {
    let all = [
        AppError::WorkspaceUnreadable {
            path: "/w".into(),
            reason: "r".into(),
        },
        AppError::InvalidSessionId {
            id: "..".into(),
            reason: "r".into(),
        },
        AppError::SessionUnreadable {
            id: "s".into(),
            reason: "r".into(),
        },
        AppError::PlanUnavailable {
            crash_id: "c1".into(),
            reason: "r".into(),
        },
        AppError::ConfigUnavailable { reason: "r".into() },
        AppError::ServersUnavailable { reason: "r".into() },
        AppError::RunInProgress,
        AppError::run_refused(&RunError::NoDevice),
        AppError::NoResult {
            evidence_session: "e".into(),
        },
        AppError::ApproveFailed { reason: "r".into() },
        AppError::ExportFailed { reason: "r".into() },
        AppError::ClipboardRefused { reason: "r".into() },
        AppError::ScreenshotUnavailable { reason: "r".into() },
        AppError::RevealFailed {
            path: "/p".into(),
            reason: "r".into(),
        },
        AppError::ImportFailed { reason: "r".into() },
        AppError::RecordFailed { reason: "r".into() },
    ];
    let codes: Vec<String> = all
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["code"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        codes,
        [
            "workspace_unreadable",
            "invalid_session_id",
            "session_unreadable",
            "plan_unavailable",
            "config_unavailable",
            "servers_unavailable",
            "run_in_progress",
            "run_refused",
            "no_result",
            "approve_failed",
            "export_failed",
            "clipboard_refused",
            "screenshot_unavailable",
            "reveal_failed",
            "import_failed",
            "record_failed",
        ]
    );
}

fn device(id: &str, name: &str) -> Device {
    serde_json::from_value(serde_json::json!({
        "id": id, "name": name, "platform": "android", "type": "emulator", "state": "online"
    }))
    .unwrap()
}

#[test]
fn a_refused_run_carries_its_refusal_next_to_code_and_message() {
    let err = AppError::run_refused(&RunError::NeedDeviceChoice {
        devices: vec![device("emulator-5554", "Pixel 7"), device("R58M", "")],
    });
    let json = serde_json::to_value(&err).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "code": "run_refused",
            "message": "the run cannot start: several Android devices are online (emulator-5554, R58M); choose one with --device",
            "refusal": {
                "kind": "needs_device",
                "devices": [
                    { "id": "emulator-5554", "name": "Pixel 7" },
                    { "id": "R58M", "name": "" },
                ],
            },
        })
    );
}

#[test]
fn a_refusal_without_data_is_still_tagged() {
    let json = serde_json::to_value(AppError::run_refused(&RunError::NoDevice)).unwrap();
    assert_eq!(json["code"], "run_refused");
    assert_eq!(json["refusal"], serde_json::json!({ "kind": "no_device" }));
    assert_eq!(
        json["message"],
        "the run cannot start: no online Android device is available; connect one or start the simulator"
    );
}

#[test]
fn only_a_refused_run_has_a_refusal() {
    let others = [
        AppError::RunInProgress,
        AppError::ServersUnavailable { reason: "r".into() },
        AppError::DiscardFailed { reason: "r".into() },
    ];
    for err in others {
        let json = serde_json::to_value(&err).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["code", "message"], "{err:?}");
    }
}
