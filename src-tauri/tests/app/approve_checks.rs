//! The window's Approve checks what it approves (issue 40): a real run's evidence,
//! reopened from disk in another workspace (an evidence folder that travelled), is
//! written into that workspace's own session folder only while its sealed journal
//! proves `result.json` and `steps.jsonl`; and an approval never replaces a newer one
//! without the tester's explicit confirm, which the error carries both entries for.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::*;
use serde_json::{json, Value};
use whittle_app::error::{AppError, ErrorCode};
use whittle_app::error_cause::ApproveCause;
use whittle_app::runs::WindowRuns;

const SIDECAR: &str = "crashes.minimized.json";

/// One finished run of the checkout crash on the simulator, through the window's code.
fn finished_run(setup: &Setup, runs: &Arc<WindowRuns>) -> String {
    let (_, rx) = setup.start(runs, 30);
    let (_, result) = drain(&rx);
    assert!(result.pending.is_some(), "{:?}", result.summary);
    result
        .summary
        .evidence_session
        .expect("an evidence session")
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_reopened_run_is_approved_into_its_workspace_only_while_its_journal_proves_it() {
    let setup = Setup::new();
    let evidence = finished_run(&setup, &Arc::new(WindowRuns::default()));
    // The evidence travels: the whole workspace copied elsewhere, reopened there after a
    // restart (nothing held in memory).
    let moved = setup.root.path().join("moved");
    copy_dir(&setup.workspace(), &moved);
    let session = moved.join("sessions").join(SESSION);
    let result_path = moved.join("sessions").join(&evidence).join("result.json");
    let original = std::fs::read(&result_path).unwrap();

    let runs = WindowRuns::default();
    let opened = open_past_run(&runs, &moved, SESSION, &evidence).unwrap();
    let view = opened.result.expect("a result");
    assert_eq!(view.approve_blocked, None);
    let preview = view.sidecar_preview.expect("approvable after the checks");

    // Rewritten while the window shows it: Approve checks the files again, names the
    // field's line, and writes nothing.
    let mut forged = read(&result_path);
    forged["minimal_path"] = json!([1, 11, 12]);
    let text = serde_json::to_string_pretty(&forged).unwrap();
    std::fs::write(&result_path, &text).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("  \"minimal_path\""))
        .unwrap()
        + 1;
    match approve(&runs, &evidence, false) {
        Err(AppError::ApproveFailed {
            reason,
            cause: ApproveCause::Inconsistent { evidence: e, .. },
        }) => {
            assert!(
                reason.contains(&format!("result.json line {line} (minimal_path)")),
                "{reason}"
            );
            assert_eq!(e, evidence);
        }
        other => panic!("{other:?}"),
    }
    assert!(!session.join(SIDECAR).exists());

    // As the run left it, the entry shown is written — into this workspace's folder,
    // never the one `result.json` names.
    std::fs::write(&result_path, &original).unwrap();
    let approval = approve(&runs, &evidence, false).unwrap();
    assert_eq!(approval.written_text, preview);
    assert_eq!(Path::new(&approval.sidecar_path), session.join(SIDECAR));
    assert!(!setup
        .workspace()
        .join("sessions")
        .join(SESSION)
        .join(SIDECAR)
        .exists());
}

#[test]
fn replacing_a_newer_approval_needs_the_testers_confirm() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let older = finished_run(&setup, &runs);
    // Approval times are whole seconds: the newer run is approved in a later one than
    // the older run started in, however fast the simulator is.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let newer = finished_run(&setup, &runs);
    let sidecar = setup
        .workspace()
        .join("sessions")
        .join(SESSION)
        .join(SIDECAR);
    approve(&runs, &newer, false).unwrap();
    // Approving the same run again replaces nothing newer.
    approve(&runs, &newer, false).unwrap();
    let held = std::fs::read(&sidecar).unwrap();

    let refused = approve(&runs, &older, false).unwrap_err();
    assert_eq!(refused.code(), ErrorCode::NewerApproval);
    let AppError::NewerApproval { newer: both, .. } = refused else {
        panic!("both entries: {refused:?}");
    };
    assert_eq!(both.crash_id, "c1");
    assert_eq!(both.held_evidence_session, newer);
    assert!(both.held_text.contains(&newer), "{}", both.held_text);
    assert!(
        both.replacing_text.contains(&older),
        "{}",
        both.replacing_text
    );
    assert_eq!(std::fs::read(&sidecar).unwrap(), held, "nothing written");

    // The tester confirmed: the older run's entry replaces it.
    approve(&runs, &older, true).unwrap();
    assert_eq!(read(&sidecar)["crashes"]["c1"]["evidence_session"], older);
}

/// Issue 53: a run made elsewhere — here a real run's evidence from another machine
/// (`tests/fixtures/evidence/`, written before journals: nothing here can prove it) —
/// copied into the workspace is not approved as it is. The window's record says why and
/// offers *Re-prove on this device* (`next`); the run it starts (`RunRequest::reprove`)
/// begins at that run's minimal path, proves it on this machine's device, and is
/// approved as any run of the window is. Approve on the run from elsewhere refuses with
/// the same typed way forward.
#[test]
fn a_run_from_elsewhere_is_re_proven_in_the_window_and_that_run_approved() {
    use whittle_service::api::{ApproveBlock, NextStep, NotProvenHere};

    let setup = Setup::new();
    let workspace = setup.workspace();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/evidence/2026-12-03_074146_minimize-checkout-npe");
    let foreign = "2026-12-03_074146_minimize-checkout-npe";
    copy_dir(&fixture, &workspace.join("sessions").join(foreign));
    let runs = Arc::new(WindowRuns::default());

    let opened = open_past_run(&runs, &workspace, SESSION, foreign).unwrap();
    let view = opened.result.expect("a result");
    assert!(view.sidecar_preview.is_none());
    let next = NextStep::Reprove {
        evidence_session: foreign.into(),
    };
    assert_eq!(
        view.approve_blocked,
        Some(ApproveBlock::NotProvenHere {
            why: NotProvenHere::NoJournal,
            next: next.clone()
        })
    );
    match approve(&runs, foreign, false) {
        Err(e) => assert!(
            matches!(e.code(), ErrorCode::NoResult | ErrorCode::ApproveFailed),
            "{e:?}"
        ),
        Ok(_) => panic!("a run nothing here proves was approved"),
    }

    // *Re-prove on this device*: the record's next, as the window sends it.
    let NextStep::Reprove { evidence_session } = next;
    let (send, rx) = updates();
    let request = whittle_app::run_request::RunRequest {
        reprove: Some(evidence_session),
        ..setup.request(30)
    };
    whittle_app::run_control::start(Some(&setup.config()), &runs, request, send).unwrap();
    let (_, result) = drain(&rx);
    assert_eq!(result.summary.reproves.as_deref(), Some(foreign));
    assert_eq!(result.summary.minimal_path, [1, 10, 11, 12]);
    let local = result.summary.evidence_session.clone().unwrap();
    approve(&runs, &local, false).expect("the run re-proven here is approved");
    let written = read(&workspace.join("sessions").join(SESSION).join(SIDECAR));
    assert_eq!(written["crashes"]["c1"]["evidence_session"], json!(local));
}

/// Issue 53: a run on two devices ("Devices at once: 2"), approved in the window as it
/// ends — its evidence holds guesses run ahead and not needed, which the check follows.
#[test]
fn a_two_device_run_is_approved_as_it_ends() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (send, rx) = updates();
    let request = whittle_app::run_request::RunRequest {
        devices: 2,
        ..setup.request(30)
    };
    whittle_app::run_control::start(Some(&setup.config()), &runs, request, send).unwrap();
    let (_, result) = drain(&rx);
    assert_eq!(
        result.summary.end.status(),
        "minimized",
        "{:?}",
        result.summary
    );
    let evidence = result.summary.evidence_session.clone().unwrap();
    approve(&runs, &evidence, false).expect("approved");
    let written = read(
        &setup
            .workspace()
            .join("sessions")
            .join(SESSION)
            .join(SIDECAR),
    );
    assert_eq!(
        written["crashes"]["c1"]["evidence_session"],
        json!(evidence)
    );
}
