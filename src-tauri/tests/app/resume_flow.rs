//! The window's *Resume* and *Discard* below the window (issue #20), with a real
//! `whittle-servers` behind the config: a run of this app that stopped (cancelled here;
//! a killed app leaves it `running`) is listed as resumable, resumes in the same evidence
//! session showing its recorded attempts first and replaying none of them, and ends as a
//! run in one go would; a run the app was closed during is offered at the next start.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use whittle_app::run_control;
use whittle_app::run_request::ResumeRequest;
use whittle_app::run_update::RunUpdate;
use whittle_app::runs::WindowRuns;
use whittle_service::api::{self as view, interrupted_runs, OwnRuns, PastRunOutcome};
use whittle_service::run::{AttemptVerdict, RunEnd, RunEvent, RunNotice};

fn own_runs_file(setup: &Setup) -> std::path::PathBuf {
    setup.root.path().join("state/own-runs.json")
}

#[test]
fn a_stopped_run_resumes_in_its_evidence_without_replaying_what_it_recorded() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::with_own_runs(OwnRuns::at(Some(own_runs_file(
        &setup,
    )))));
    let (run_id, rx) = setup.start(&runs, 30);
    let mut evidence = None;
    let stopped = loop {
        match rx.recv_timeout(Duration::from_secs(120)).expect("in time") {
            RunUpdate::Event {
                event:
                    RunEvent::Started {
                        evidence_session, ..
                    },
                ..
            } => {
                let listed = std::fs::read_to_string(own_runs_file(&setup)).unwrap();
                assert!(
                    listed.contains(&evidence_session),
                    "remembered while it runs"
                );
                evidence = Some(evidence_session);
            }
            RunUpdate::Event {
                event: RunEvent::AttemptStarted { attempt: 3, .. },
                ..
            } => assert!(runs.cancel(run_id)),
            RunUpdate::Event { .. } => {}
            // Live frames: the window watches the devices.
            RunUpdate::Frame { .. } => {}
            RunUpdate::Ended { result, .. } => break *result.expect("a result"),
        }
    };
    let evidence = evidence.expect("the run started");
    assert_eq!(stopped.summary.end, RunEnd::Cancelled);
    let listed = std::fs::read_to_string(own_runs_file(&setup)).unwrap();
    assert!(!listed.contains(&evidence), "forgotten once it ended");

    let detail = view::session_detail(&setup.workspace(), SESSION).unwrap();
    let past = &detail.crashes[0].past_runs[0];
    assert_eq!(past.outcome, PastRunOutcome::Cancelled);
    assert!(past.resumable, "a cancelled run can go on");

    let (send, rx) = updates();
    run_control::resume(
        Some(&setup.config()),
        &runs,
        ResumeRequest {
            workspace: setup.workspace().display().to_string(),
            evidence_session: evidence.clone(),
            locale: "en".into(),
        },
        send,
    )
    .unwrap();
    let (events, result) = drain(&rx);
    assert_eq!(result.summary.end, RunEnd::Minimized, "{}", result.report);
    assert_eq!(result.summary.minimal_path, [1, 10, 11, 12]);
    assert_eq!(
        result.summary.evidence_session.as_deref(),
        Some(evidence.as_str())
    );
    assert!(result.report.contains("Resumed: "), "{}", result.report);

    // The attempts recorded before the stop are shown again, then the run says it
    // resumed; the attempts it replays start right after them (the cancelled one is
    // run again under its number). The stop came at attempt 3 or soon after.
    let (resumed_at, kept) = events
        .iter()
        .enumerate()
        .find_map(|(at, e)| match e {
            RunEvent::Notice {
                notice: RunNotice::Resumed { after_attempts, .. },
            } => Some((at, *after_attempts)),
            _ => None,
        })
        .expect("a resumed notice");
    assert!(kept >= 2, "{kept}");
    let shown: Vec<u32> = events[..resumed_at]
        .iter()
        .filter_map(|e| match e {
            RunEvent::AttemptFinished(a) => Some(a.attempt),
            _ => None,
        })
        .collect();
    assert_eq!(shown, (1..=kept).collect::<Vec<_>>());
    let replayed: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::AttemptStarted { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert_eq!(replayed.first(), Some(&(kept + 1)));
    assert_eq!(
        replayed.len() as u32,
        result.summary.attempts - kept,
        "every attempt once"
    );
    assert!(!events.iter().any(|e| matches!(
        e,
        RunEvent::AttemptFinished(a) if a.verdict == AttemptVerdict::Cancelled
    )));

    let detail = view::session_detail(&setup.workspace(), SESSION).unwrap();
    let past = &detail.crashes[0].past_runs[0];
    assert_eq!(past.outcome, PastRunOutcome::Minimized);
    assert!(!past.resumable);
}

#[test]
fn a_run_the_app_was_closed_during_is_offered_at_the_next_start_and_can_be_discarded() {
    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (run_id, rx) = setup.start(&runs, 30);
    let mut evidence = None;
    loop {
        match rx.recv_timeout(Duration::from_secs(120)).expect("in time") {
            RunUpdate::Event {
                event:
                    RunEvent::Started {
                        evidence_session, ..
                    },
                ..
            } => evidence = Some(evidence_session),
            RunUpdate::Event {
                event: RunEvent::AttemptStarted { attempt: 2, .. },
                ..
            } => assert!(runs.cancel(run_id)),
            RunUpdate::Event { .. } => {}
            // Live frames: the window watches the devices.
            RunUpdate::Frame { .. } => {}
            RunUpdate::Ended { .. } => break,
        }
    }
    let evidence = evidence.unwrap();
    let dir = setup.workspace().join("sessions").join(&evidence);
    // What a killed app leaves: the meta still says running, and its own-runs list
    // still names the run.
    let meta_path = dir.join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["status"] = "running".into();
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    let own = OwnRuns::at(Some(own_runs_file(&setup)));
    own.started(&setup.workspace(), &evidence);

    let next_start = OwnRuns::at(Some(own_runs_file(&setup)));
    let found = interrupted_runs(&setup.workspace(), &next_start);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].evidence_session, evidence);
    assert_eq!(
        (found[0].session_id.as_str(), found[0].crash_id.as_str()),
        (SESSION, "c1")
    );
    assert!(found[0].own && found[0].resumable);
    // Another app's list does not claim it.
    assert!(!interrupted_runs(&setup.workspace(), &OwnRuns::default())[0].own);
    let detail = view::session_detail(&setup.workspace(), SESSION).unwrap();
    assert_eq!(
        detail.crashes[0].past_runs[0].outcome,
        PastRunOutcome::Interrupted
    );

    whittle_service::run::discard(&setup.workspace(), &evidence).unwrap();
    assert!(interrupted_runs(&setup.workspace(), &next_start).is_empty());
    let detail = view::session_detail(&setup.workspace(), SESSION).unwrap();
    let past = &detail.crashes[0].past_runs[0];
    assert_eq!(past.outcome, PastRunOutcome::Discarded);
    assert!(!past.resumable);
}
