//! The window's Import…, Run once and record, filmstrip and Copy as Markdown, through the
//! app's backend with a real `whittle-servers` on the demo shop: the demo Maestro flow is
//! imported, one recorded replay finds the checkout crash, a minimize run's result shows
//! its filmstrip, and the ticket text names the minimal steps.

use crate::common;

use std::sync::Arc;

use common::*;
use whittle_app::commands::import_flow as import;
use whittle_app::formats;
use whittle_app::run_control;
use whittle_app::run_request::RunRequest;
use whittle_app::runs::WindowRuns;
use whittle_core::import::FlowFormat;
use whittle_core::model::SessionStatus;
use whittle_service::api::{self as view, ImportRequest};
use whittle_service::result::ResultPurpose;

#[test]
fn an_imported_flow_is_recorded_minimized_and_shown_with_its_filmstrip() {
    let setup = Setup::new();
    let workspace = setup.workspace().display().to_string();
    let imported = import(ImportRequest {
        workspace: workspace.clone(),
        format: FlowFormat::Maestro,
        file: repo()
            .join("demo/flows/checkout.maestro.yaml")
            .display()
            .to_string(),
        name: Some("  ".into()),
        package: None,
        variables: None,
        private_values: None,
    })
    .unwrap();
    assert_eq!((imported.steps, imported.replayable), (11, 9));
    // Not run yet, it shows its steps already: the whole flow, as a replay would run it.
    let detail = view::session_detail(setup.workspace().as_path(), &imported.session_id).unwrap();
    assert!(detail.not_run && detail.crashes.is_empty());
    let flow = detail.flow.expect("the flow's steps before it runs");
    assert_eq!(flow.steps.len(), 11);
    assert_eq!(flow.coverage.replayable, 9);
    assert!(flow.steps.iter().all(|s| !s.is_trigger));

    let recorded = tauri::async_runtime::block_on(formats::record(
        Some(&setup.config()),
        &workspace,
        &imported.session_id,
        Some("sim-1".into()),
    ))
    .unwrap();
    assert_eq!(recorded.status, SessionStatus::Failed);
    assert_eq!(recorded.crashes.len(), 1);
    assert_eq!(recorded.crashes[0].step_index, 11);
    // A second recording would rewrite crashes.jsonl: refused.
    let again = tauri::async_runtime::block_on(formats::record(
        Some(&setup.config()),
        &workspace,
        &imported.session_id,
        Some("sim-1".into()),
    ));
    assert!(again.unwrap_err().to_string().contains("never rewrites"));
    // Its crash plans the steps now; the flow is no longer listed on its own.
    let detail = view::session_detail(setup.workspace().as_path(), &imported.session_id).unwrap();
    assert!(detail.flow.is_none() && detail.crashes.len() == 1);
    // Its past run is listed as a recording: no path, no confidence — so Minimize all
    // does not take it for a minimized crash group and skip it.
    let past = &detail.crashes[0].past_runs;
    assert_eq!(past.len(), 1, "{past:?}");
    assert_eq!(past[0].outcome, view::PastRunOutcome::Recorded);
    assert!(past[0].minimal_steps.is_none() && past[0].confidence.is_none());
    let queue = view::plan_queue(
        setup.workspace().as_path(),
        &view::QueueScope::Session(imported.session_id.clone()),
        false,
    )
    .unwrap();
    assert!(queue.items.iter().all(|i| i.skip.is_none()), "{queue:?}");

    // The recording's result reopens as a recording's, never as a minimize run's.
    let runs = Arc::new(WindowRuns::default());
    let reopened = open_past_run(
        &runs,
        setup.workspace().as_path(),
        &imported.session_id,
        &recorded.evidence_session,
    )
    .unwrap();
    let recording = reopened.result.expect("the recording's result");
    assert_eq!(recording.purpose, ResultPurpose::Record);
    assert!(recording.pending.is_none() && recording.sidecar_preview.is_none());

    let (send, rx) = updates();
    let request = RunRequest {
        session_id: imported.session_id.clone(),
        ..setup.request(30)
    };
    run_control::start(Some(&setup.config()), &runs, request, send).unwrap();
    let (_, result) = drain(&rx);
    assert_eq!(result.summary.minimal_path, [1, 8, 10, 11]);
    assert_eq!(result.purpose, ResultPurpose::Minimize);
    let evidence = result.summary.evidence_session.clone().unwrap();

    let film = formats::filmstrip(&workspace, &evidence)
        .unwrap()
        .expect("a filmstrip");
    assert_eq!(film.frames.len(), 4);
    let steps: Vec<_> = film.frames.iter().map(|f| f.step).collect();
    assert_eq!(steps, [Some(1), Some(8), Some(10), Some(11)]);
    assert!(film.frames[0]
        .image
        .as_deref()
        .is_some_and(|i| i.starts_with("data:image/png;base64,")));
    assert!(film
        .frames
        .iter()
        .all(|f| f.image.is_some() || f.omitted.is_some()));

    let md = formats::markdown(&workspace, &evidence).unwrap();
    assert!(md.contains("4. Tap “Checkout” (original step 11)"), "{md}");
    assert!(formats::markdown(&workspace, "../outside").is_err());
}

#[test]
fn a_bad_flow_is_refused_in_words_and_writes_nothing() {
    let setup = Setup::new();
    let bad = setup.root.path().join("bad.json");
    std::fs::write(&bad, "[{\"eventType\": \"TELEPORT\"}]").unwrap();
    let request = ImportRequest {
        workspace: setup.workspace().display().to_string(),
        format: FlowFormat::Robo,
        file: bad.display().to_string(),
        name: None,
        package: Some("com.example.shop".into()),
        variables: None,
        private_values: None,
    };
    let e = import(request.clone()).unwrap_err();
    assert_eq!(
        serde_json::to_value(&e).unwrap()["code"],
        "import_failed",
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("bad.json line 1, field [0].eventType"),
        "{e}"
    );
    // A bad session name is the name field's fault, not the file's: the cause says so.
    let good = setup.workspace().join("good.json");
    std::fs::write(&good, "[]").unwrap();
    let badly_named = ImportRequest {
        file: good.display().to_string(),
        name: Some("../escape".into()),
        ..request.clone()
    };
    let e = import(badly_named).unwrap_err();
    assert_eq!(
        serde_json::to_value(&e).unwrap()["cause"],
        serde_json::json!({ "kind": "bad_name", "name": "../escape" }),
        "{e}"
    );
    let relative = ImportRequest {
        file: "bad.json".into(),
        ..request
    };
    assert!(import(relative).is_err());
    let sessions: Vec<_> = std::fs::read_dir(setup.workspace().join("sessions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(sessions, [SESSION]);
}
