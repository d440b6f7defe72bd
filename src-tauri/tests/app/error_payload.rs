//! The one error type commands return, as the window receives it: `{ code, …typed
//! fields, message }`. The window words every code from its catalogue using the typed
//! fields; `message` is the English sentence for logs. Each code's JSON is pinned here,
//! so a change of shape is a decision (the TypeScript side switches on these fields).

use serde_json::{json, Value};
use whittle_app::error::AppError;
use whittle_app::error_cause::{
    ApproveCause, ConfigCause, ExportCause, ImportCause, RevealCause, ServersCause, SessionCause,
    WorkspaceCause,
};
use whittle_app::newer_approval::NewerApprovalView;
use whittle_contract::mobile::Device;
use whittle_contract::Role;
use whittle_core::session::{SessionError, SessionIdError, SessionProblem};
use whittle_service::api::pictures::PictureError;
use whittle_service::api::{ServerProblem, ServerProblemKind};
use whittle_service::run::RunError;

fn wire(err: &AppError) -> Value {
    serde_json::to_value(err).unwrap()
}

/// The JSON without its English sentence, which is checked apart.
fn fields(err: &AppError) -> Value {
    let mut json = wire(err);
    let message = json.as_object_mut().unwrap().remove("message");
    assert_eq!(message, Some(Value::String(err.to_string())), "{err:?}");
    json
}

#[test]
fn serializes_as_code_typed_fields_and_message() {
    let err = AppError::SessionUnreadable {
        id: "2026-05-16_120000_broken-export".into(),
        cause: SessionCause::Invalid {
            error: SessionError {
                file: "steps.jsonl".into(),
                line: Some(4),
                problem: SessionProblem::Truncated,
            },
        },
    };
    assert_eq!(
        wire(&err),
        json!({
            "code": "session_unreadable",
            "id": "2026-05-16_120000_broken-export",
            "cause": {
                "kind": "invalid",
                "error": { "file": "steps.jsonl", "line": 4, "problem": { "code": "truncated" } },
            },
            "message": "session 2026-05-16_120000_broken-export cannot be opened: steps.jsonl line 4: ends in the middle of a record (the file is truncated or still being written)",
        })
    );
}

fn newer() -> NewerApprovalView {
    NewerApprovalView {
        crash_id: "c1".into(),
        held_text: "held".into(),
        held_evidence_session: "e0".into(),
        held_approved_at: "2026-05-16T12:00:00Z".into(),
        replacing_text: "new".into(),
    }
}

/// One error of every code, with the JSON the window receives for it.
fn every_code() -> Vec<(AppError, Value)> {
    vec![
        (
            AppError::WorkspaceUnreadable {
                path: "/w".into(),
                cause: WorkspaceCause::NoSessionsFolder,
            },
            json!({ "code": "workspace_unreadable", "path": "/w",
                    "cause": { "kind": "no_sessions_folder" } }),
        ),
        (
            AppError::InvalidSessionId {
                id: "a/b".into(),
                problem: SessionIdError::InvalidChar {
                    found: '/',
                    position: 2,
                },
            },
            json!({ "code": "invalid_session_id", "id": "a/b",
                    "problem": { "kind": "invalid_char", "found": "/", "position": 2 } }),
        ),
        (
            AppError::SessionUnreadable {
                id: "e1".into(),
                cause: SessionCause::NotARunOf {
                    session: "s1".into(),
                },
            },
            json!({ "code": "session_unreadable", "id": "e1",
                    "cause": { "kind": "not_a_run_of", "session": "s1" } }),
        ),
        (
            AppError::PlanUnavailable {
                crash_id: "c1".into(),
                detail: "d".into(),
            },
            json!({ "code": "plan_unavailable", "crash_id": "c1", "detail": "d" }),
        ),
        (
            AppError::ConfigUnavailable {
                cause: ConfigCause::BadField {
                    file: "/w/whittle.json".into(),
                    field: "workspace".into(),
                    detail: "must be absolute".into(),
                },
            },
            json!({ "code": "config_unavailable",
                    "cause": { "kind": "bad_field", "file": "/w/whittle.json",
                               "field": "workspace", "detail": "must be absolute" } }),
        ),
        (
            AppError::ServersUnavailable {
                reason: "r".into(),
                cause: ServersCause::NotStarted {
                    problems: vec![ServerProblem {
                        role: Role::Mobile,
                        server: Some("lab".into()),
                        problem: ServerProblemKind::StartFailed {
                            detail: "exit 1".into(),
                        },
                    }],
                },
            },
            json!({ "code": "servers_unavailable",
                    "cause": { "kind": "not_started", "problems": [
                        { "role": "mobile", "server": "lab",
                          "problem": { "kind": "start_failed", "detail": "exit 1" } } ] } }),
        ),
        (
            AppError::RunInProgress,
            json!({ "code": "run_in_progress" }),
        ),
        (
            AppError::run_refused(&RunError::NoDevice),
            json!({ "code": "run_refused", "refusal": { "kind": "no_device" } }),
        ),
        (
            AppError::NoResult {
                evidence_session: "e1".into(),
            },
            json!({ "code": "no_result", "evidence_session": "e1" }),
        ),
        (
            AppError::ApproveFailed {
                reason: "r".into(),
                cause: ApproveCause::OtherCrash {
                    evidence: "e1".into(),
                    crash_id: "c1".into(),
                    asked: "c2".into(),
                },
            },
            json!({ "code": "approve_failed",
                    "cause": { "kind": "other_crash", "evidence": "e1",
                               "crash_id": "c1", "asked": "c2" } }),
        ),
        (
            AppError::NewerApproval {
                reason: "r".into(),
                newer: Box::new(newer()),
            },
            json!({ "code": "newer_approval", "newer_approval": {
                "crash_id": "c1", "held_text": "held", "held_evidence_session": "e0",
                "held_approved_at": "2026-05-16T12:00:00Z", "replacing_text": "new" } }),
        ),
        (
            AppError::ExportFailed {
                reason: "r".into(),
                cause: ExportCause::NoResultFile {
                    evidence: "e1".into(),
                },
            },
            json!({ "code": "export_failed",
                    "cause": { "kind": "no_result_file", "evidence": "e1" } }),
        ),
        (
            AppError::ClipboardRefused {
                detail: "no display".into(),
            },
            json!({ "code": "clipboard_refused", "detail": "no display" }),
        ),
        (
            AppError::ScreenshotUnavailable {
                cause: PictureError::Unavailable {
                    detail: "gone".into(),
                },
            },
            json!({ "code": "screenshot_unavailable",
                    "cause": { "kind": "unavailable", "detail": "gone" } }),
        ),
        (
            AppError::RevealFailed {
                path: "/etc".into(),
                cause: RevealCause::NotAllowed,
            },
            json!({ "code": "reveal_failed", "path": "/etc", "cause": { "kind": "not_allowed" } }),
        ),
        (
            AppError::DiscardFailed {
                evidence_session: "e1".into(),
                detail: "d".into(),
            },
            json!({ "code": "discard_failed", "evidence_session": "e1", "detail": "d" }),
        ),
        (
            AppError::ImportFailed {
                cause: ImportCause::VariableName { name: "1x".into() },
            },
            json!({ "code": "import_failed", "cause": { "kind": "variable_name", "name": "1x" } }),
        ),
        (
            AppError::RecordFailed { detail: "d".into() },
            json!({ "code": "record_failed", "detail": "d" }),
        ),
    ]
}

#[test]
fn an_import_refused_for_a_field_of_the_form_names_that_field() {
    // The window words these by their kind (the name or package field), not as a fault
    // of the file.
    for (cause, expected) in [
        (
            ImportCause::BadName { name: "a/b".into() },
            json!({ "kind": "bad_name", "name": "a/b" }),
        ),
        (ImportCause::NoPackage, json!({ "kind": "no_package" })),
        (
            ImportCause::PackageConflict {
                in_file: "a.b".into(),
                given: "c.d".into(),
            },
            json!({ "kind": "package_conflict", "in_file": "a.b", "given": "c.d" }),
        ),
    ] {
        let err = AppError::ImportFailed { cause };
        assert_eq!(
            fields(&err),
            json!({ "code": "import_failed", "cause": expected })
        );
    }
}

#[test]
fn every_code_has_its_pinned_shape() {
    for (err, expected) in every_code() {
        assert_eq!(fields(&err), expected, "{err:?}");
    }
}

#[test]
fn every_variant_has_its_own_code_and_it_is_the_wire_code() {
    let all = every_code();
    let mut codes: Vec<String> = all
        .iter()
        .map(|(err, _)| {
            let code = serde_json::to_value(err.code()).unwrap();
            assert_eq!(wire(err)["code"], code, "{err:?}");
            code.as_str().unwrap().to_owned()
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
            "newer_approval",
            "export_failed",
            "clipboard_refused",
            "screenshot_unavailable",
            "reveal_failed",
            "discard_failed",
            "import_failed",
            "record_failed",
        ]
    );
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), all.len(), "one code per variant");
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
    for (err, _) in every_code() {
        let json = wire(&err);
        assert_eq!(
            json.get("refusal").is_some(),
            matches!(err, AppError::RunRefused { .. }),
            "{err:?}"
        );
    }
}

#[test]
fn the_payload_of_a_run_channel_is_the_command_error_shape() {
    let err = AppError::WorkspaceUnreadable {
        path: "/w".into(),
        cause: WorkspaceCause::Unreadable {
            detail: "permission denied".into(),
        },
    };
    assert_eq!(serde_json::to_value(err.payload()).unwrap(), wire(&err));
    assert_eq!(
        wire(&err)["message"],
        "the workspace folder /w cannot be read: permission denied"
    );
}
