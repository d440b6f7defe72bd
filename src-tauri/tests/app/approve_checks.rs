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
