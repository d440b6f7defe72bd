//! The app's run flow end to end below the window: a real `whittle-servers` process
//! (simulated device, zero timing) behind the config, the demo's checkout session, and
//! the app's own start / cancel / approve / export / screenshot code.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::*;

use serde_json::{json, Value};
use whittle_app::error::AppError;
use whittle_app::error_cause::{ConfigCause, ExportCause, RevealCause};
use whittle_app::run_update::RunUpdate;
use whittle_app::runs::WindowRuns;
use whittle_app::{reveal, run_control};
use whittle_service::api::pictures as screenshots;
use whittle_service::api::{CountField, RunRefusal};
use whittle_service::mask::{MaskRect, MaskStyle};
use whittle_service::run::{AttemptVerdict, RunEnd, RunEvent, RunNotice};

#[test]
fn a_run_streams_its_events_and_its_result_can_be_masked_approved_and_exported() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (run_id, rx) = setup.start(&runs, 30);
    assert!(
        matches!(
            run_control::start(Some(&setup.config()), &runs, setup.request(30), |_| {}),
            Err(AppError::RunInProgress)
        ),
        "a second run must wait for the first"
    );
    let (events, result) = drain(&rx);
    assert!(!runs.is_running());
    // Plan warnings may come first; the run itself starts with `Started`.
    let first = events
        .iter()
        .find(|e| !matches!(e, RunEvent::Warning { .. } | RunEvent::Notice { .. }));
    assert!(matches!(first, Some(RunEvent::Started { .. })), "{first:?}");
    assert!(matches!(events.last(), Some(RunEvent::Finished(_))));
    let finished: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::AttemptFinished(a) => Some(a),
            _ => None,
        })
        .collect();
    assert_eq!(finished.len() as u32, result.summary.attempts);
    assert!(finished
        .iter()
        .enumerate()
        .all(|(i, a)| a.attempt == i as u32 + 1));
    // A reproducing attempt ends on the launcher (the app is gone, the hierarchy empty),
    // so its screenshot is the masked frame before its last action: the crash is in the
    // evidence, and no screenshot had to be omitted.
    let crashed: Vec<_> = finished
        .iter()
        .filter(|a| a.verdict.reproduced() && !a.candidate.is_empty())
        .collect();
    assert!(crashed.len() > 1, "{finished:?}");
    for a in &crashed {
        assert!(a.screenshot.is_some(), "{a:?}");
        assert_eq!(
            a.screenshot_before_step,
            a.candidate.last().copied(),
            "{a:?}"
        );
    }
    let told: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Notice {
                notice: RunNotice::ScreenshotOmitted { why, .. },
            } => Some(why.clone()),
            _ => None,
        })
        .collect();
    assert!(told.is_empty(), "{told:?}");

    // What the window receives over IPC never carries the session's private input.
    let payloads =
        serde_json::to_string(&events).unwrap() + &serde_json::to_string(&result).unwrap();
    assert!(
        !payloads.contains("qa.tester@example.com"),
        "the e-mail typed at step 6 leaked"
    );

    let summary = &result.summary;
    assert_eq!(summary.end, RunEnd::Minimized, "{}", result.report);
    assert_eq!(summary.minimal_path, [1, 10, 11, 12]);
    let evidence = summary.evidence_session.clone().unwrap();
    let preview = result
        .sidecar_preview
        .clone()
        .expect("a preview of the write-back");
    assert!(preview.contains("\"minimized_repro_path\""), "{preview}");
    assert!(
        result
            .evidence_dir
            .as_deref()
            .unwrap()
            .starts_with(&*setup.workspace().to_string_lossy()),
        "the run used the window's workspace, not the config's"
    );
    let _ = run_id;

    // The viewer sees masked images only, with the burned-in masks listed.
    let shot = finished
        .iter()
        .find_map(|a| a.screenshot.clone())
        .expect("a screenshot");
    let ws = setup.workspace().display().to_string();
    let view = screenshots::view(&ws, &evidence, &shot).unwrap();
    assert!(view.data_url.starts_with("data:image/png;base64,"));
    assert!(view.width > 0 && view.height > 0);
    let thumb = screenshots::thumbnail(&ws, &evidence, &shot).unwrap();
    assert!(thumb.starts_with("data:image/png;base64,") && thumb.len() < view.data_url.len());
    assert!(matches!(
        screenshots::step_thumbnail(&ws, SESSION, "../../whittle.json"),
        Err(screenshots::PictureError::Unavailable { .. })
    ));
    let before = view.data_url.clone();
    let request = screenshots::MaskRequest {
        workspace: ws.clone(),
        evidence_session: evidence.clone(),
        screenshots: vec![shot.clone()],
        rects: vec![MaskRect {
            x: 0,
            y: 0,
            w: 30,
            h: 30,
            reason: "reviewer".into(),
        }],
        style: MaskStyle::Solid,
    };
    assert_eq!(screenshots::apply(&request).unwrap(), 1);
    let after = screenshots::view(&ws, &evidence, &shot).unwrap();
    assert_ne!(after.data_url, before);
    assert!(after.masks.iter().any(|m| m.reason == "reviewer"));
    assert!(matches!(
        screenshots::view(&ws, &evidence, "screenshots/../result.json"),
        Err(screenshots::PictureError::Unavailable { .. })
    ));

    // Approval writes exactly the sidecar entry, next to the original session.
    let approval = approve(&runs, &evidence, false).unwrap();
    let sidecar = setup
        .workspace()
        .join("sessions")
        .join(SESSION)
        .join("crashes.minimized.json");
    assert_eq!(PathBuf::from(&approval.sidecar_path), sidecar);
    let written: Value = serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    assert_eq!(
        written["crashes"]["c1"]["minimized_repro_path"],
        json!([1, 10, 11, 12])
    );
    let shown: Value = serde_json::from_str(&approval.written_text).unwrap();
    assert_eq!(shown["c1"], written["crashes"]["c1"]);
    // What was previewed is what was written, `approved_at` included: the entry is
    // stamped once, when the result is shown.
    assert_eq!(approval.written_text, preview);

    // Export never overwrites: a second export gets its own folder.
    let out = setup.root.path().join("exports");
    let first = export(&runs, &evidence, &out.display().to_string()).unwrap();
    let second = export(&runs, &evidence, &out.display().to_string()).unwrap();
    assert_ne!(first, second);
    assert!(second.ends_with("-2"), "{second}");
    assert!(Path::new(&first).join("manifest.json").is_file());
    assert!(matches!(
        export(&runs, &evidence, "relative/folder"),
        Err(AppError::ExportFailed {
            cause: ExportCause::FolderNotAbsolute { folder },
            ..
        }) if folder == "relative/folder"
    ));

    // Only what the app wrote may be revealed.
    assert!(matches!(
        reveal::reveal(&runs, "/etc"),
        Err(AppError::RevealFailed {
            cause: RevealCause::NotAllowed,
            ..
        })
    ));
}

#[test]
fn a_cancelled_run_ends_cancelled_with_nothing_to_approve() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (run_id, rx) = setup.start(&runs, 30);
    let mut cancelled = false;
    let mut reasons = Vec::new();
    let result = loop {
        match rx
            .recv_timeout(Duration::from_secs(120))
            .expect("run ended in time")
        {
            RunUpdate::Event {
                event: RunEvent::AttemptStarted { attempt: 2, .. },
                ..
            } => {
                cancelled = runs.cancel(run_id);
            }
            RunUpdate::Event {
                event: RunEvent::AttemptFinished(a),
                ..
            } => reasons.push(a.verdict),
            RunUpdate::Event { .. } => {}
            // Live frames: the window watches the devices.
            RunUpdate::Frame { .. } => {}
            RunUpdate::Ended { result, .. } => {
                break *result.expect("a cancelled run still has a result")
            }
        }
    };
    assert!(cancelled);
    assert_eq!(result.summary.end, RunEnd::Cancelled);
    assert!(result.pending.is_none());
    assert!(result.sidecar_preview.is_none());
    // Cancelling is not a device error: the attempt it stopped says so.
    assert!(reasons.contains(&AttemptVerdict::Cancelled), "{reasons:?}");
    assert!(!reasons
        .iter()
        .any(|r| matches!(r, AttemptVerdict::Failed { .. })));
    // The baseline reproduced before the cancel: its path is the best so far, unproven,
    // and can be exported as such (never approved).
    // (the whole replayable path: nothing was removed yet)
    assert_eq!(result.summary.minimal_path, [1, 2, 3, 4, 5, 9, 10, 11, 12]);
    assert!(!result.summary.rating.complete);
    assert!(result.exportable);
    let evidence = result.summary.evidence_session.unwrap();
    assert!(matches!(
        approve(&runs, &evidence, false),
        Err(AppError::ApproveFailed { .. })
    ));
    assert!(!setup
        .workspace()
        .join("sessions")
        .join(SESSION)
        .join("crashes.minimized.json")
        .exists());
}

#[test]
fn bad_requests_are_refused_before_anything_starts() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let refused = run_control::start(Some(&setup.config()), &runs, setup.request(0), |_| {});
    assert!(matches!(
        refused,
        Err(AppError::RunRefused {
            refusal: RunRefusal::InvalidCount {
                field: CountField::MaxReplays,
                ..
            },
            ..
        })
    ));
    let no_config = run_control::start(None, &runs, setup.request(5), |_| {});
    assert!(matches!(
        no_config,
        Err(AppError::ConfigUnavailable {
            cause: ConfigCause::NoConfig { .. }
        })
    ));
    assert!(!runs.is_running());
}

#[test]
fn a_run_on_a_device_that_is_gone_is_refused_with_the_devices_to_choose_from() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (send, rx) = updates();
    let mut request = setup.request(5);
    request.device = Some("emulator-0000".into());
    run_control::start(Some(&setup.config()), &runs, request, send).unwrap();
    let error = loop {
        match rx.recv_timeout(Duration::from_secs(120)).expect("ended") {
            RunUpdate::Event { .. } => {}
            // Live frames: the window watches the devices.
            RunUpdate::Frame { .. } => {}
            RunUpdate::Ended { result, error, .. } => {
                assert!(result.is_none());
                break error.expect("a refusal");
            }
        }
    };
    // The window gets the refusal's case and the simulator's device to offer instead.
    let json = serde_json::to_value(&error).unwrap();
    assert_eq!(json["code"], "run_refused");
    assert_eq!(json["refusal"]["kind"], "device_not_found", "{json}");
    assert_eq!(json["refusal"]["device"], "emulator-0000");
    let offered = json["refusal"]["devices"].as_array().unwrap();
    assert!(!offered.is_empty(), "{json}");
    assert!(offered.iter().all(|d| d["id"].is_string()), "{json}");
    assert!(!runs.is_running());
}
