//! Results that stay: a real run's evidence (tests/fixtures/SOURCES.md) next to the
//! demo session it minimized — listed under that session with its badge, reopened with
//! its attempts and result without replaying, and shown read-only when its evidence
//! does not hold together. The fixture was made before runs kept a sealed journal, so
//! nothing proves it and it is never approved; approving a reopened run (sealed, into
//! the workspace's own folder) is `approve_checks.rs`.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use whittle_app::runs::WindowRuns;
use whittle_core::model::Confidence;
use whittle_service::api::{self as view, ApproveBlock, NextStep, NotProvenHere, PastRunOutcome};
use whittle_service::run::{RunEnd, RunEvent};

const EVIDENCE: &str = "2026-12-03_074146_minimize-checkout-npe";

fn workspace_with_evidence() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let ws = root.path().join("workspace");
    copy_dir(
        &repo().join("demo/workspace/sessions").join(SESSION),
        &ws.join("sessions").join(SESSION),
    );
    copy_dir(
        &repo().join("tests/fixtures/evidence").join(EVIDENCE),
        &ws.join("sessions").join(EVIDENCE),
    );
    (root, ws)
}

fn edit_result(ws: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = ws.join("sessions").join(EVIDENCE).join("result.json");
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut json);
    std::fs::write(path, json.to_string()).unwrap();
}

#[test]
fn an_evidence_session_is_listed_under_its_session_with_a_badge() {
    let (_root, ws) = workspace_with_evidence();
    let sessions = view::sessions(&ws).unwrap();
    let ids: Vec<&str> = sessions.iter().map(|s| s.session_id.as_str()).collect();
    assert_eq!(
        ids,
        [SESSION],
        "the evidence session is not a session of its own"
    );
    assert_eq!(sessions[0].past_runs, 1);

    let detail = view::session_detail(&ws, SESSION).unwrap();
    let runs = &detail.crashes[0].past_runs;
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run.evidence_session, EVIDENCE);
    assert_eq!(run.outcome, PastRunOutcome::Minimized);
    assert_eq!((run.original_steps, run.minimal_steps), (12, Some(4)));
    assert_eq!(run.confidence, Some(Confidence::High));
    assert!(run.converged && !run.approved);
    assert_eq!(run.attempts, 20);
}

#[test]
fn a_reopened_run_shows_its_attempts_and_without_a_journal_is_never_approved() {
    let (_root, ws) = workspace_with_evidence();
    let runs = WindowRuns::default();
    let opened = open_past_run(&runs, &ws, SESSION, EVIDENCE).unwrap();
    let attempts = opened
        .events
        .iter()
        .filter(|e| matches!(e, RunEvent::AttemptFinished { .. }))
        .count();
    assert_eq!(attempts, 20);
    assert!(
        matches!(opened.events.first(), Some(RunEvent::Started { devices, .. }) if devices == &["sim-1", "sim-2"])
    );
    assert!(
        matches!(opened.events.last(), Some(RunEvent::Finished(s)) if s.end == RunEnd::Minimized)
    );
    let result = opened.result.expect("a result");
    assert!(result.reopened && result.exportable && !result.approved);
    // Nothing proves what this run observed: removing the journal must never be a way
    // around its seal.
    assert!(result.pending.is_none() && result.sidecar_preview.is_none());
    // Not approved as it is; the way forward is to re-prove it here (issue 53).
    match result.approve_blocked {
        Some(ApproveBlock::NotProvenHere {
            why: NotProvenHere::NoJournal,
            next: NextStep::Reprove { evidence_session },
        }) => assert_eq!(evidence_session, EVIDENCE),
        other => panic!("{other:?}"),
    }
    assert!(approve(&runs, EVIDENCE, false).is_err());
    let sidecar = ws
        .join("sessions")
        .join(SESSION)
        .join("crashes.minimized.json");
    assert!(!sidecar.exists());
    let detail = view::session_detail(&ws, SESSION).unwrap();
    assert!(!detail.crashes[0].past_runs[0].approved);
}

#[test]
fn a_rewritten_result_is_shown_but_not_approvable() {
    for (what, edit) in [
        (
            "a shorter path than the run found",
            Box::new(|j: &mut serde_json::Value| j["minimal_path"] = serde_json::json!([1, 12]))
                as Box<dyn Fn(&mut serde_json::Value)>,
        ),
        (
            "another crash",
            Box::new(|j: &mut serde_json::Value| j["crash_id"] = "c9".into()),
        ),
        (
            "more attempts than the evidence holds",
            Box::new(|j: &mut serde_json::Value| j["attempts"] = 21.into()),
        ),
        (
            "high without a fixed point",
            Box::new(|j: &mut serde_json::Value| j["fixed_point_reached"] = false.into()),
        ),
    ] {
        let (_root, ws) = workspace_with_evidence();
        edit_result(&ws, |j| edit(j));
        let runs = WindowRuns::default();
        let result = open_past_run(&runs, &ws, SESSION, EVIDENCE)
            .unwrap()
            .result
            .unwrap();
        assert!(result.pending.is_none(), "{what}");
        // The evidence (from before journals) has nothing that proves it: not approved,
        // whatever its result says; it can only be re-proven here.
        assert!(
            matches!(
                result.approve_blocked,
                Some(ApproveBlock::NotProvenHere {
                    why: NotProvenHere::NoJournal,
                    ..
                })
            ),
            "{what}"
        );
        assert!(approve(&runs, EVIDENCE, false).is_err(), "{what}");
        assert!(
            !ws.join("sessions")
                .join(SESSION)
                .join("crashes.minimized.json")
                .exists(),
            "{what}"
        );
    }
}

#[test]
fn an_evidence_session_opened_under_another_session_is_refused() {
    let (_root, ws) = workspace_with_evidence();
    let err = open_past_run(
        &WindowRuns::default(),
        &ws,
        "2026-05-13_170000_legacy-login",
        EVIDENCE,
    )
    .unwrap_err();
    assert!(err.to_string().contains("not a minimize run"), "{err}");
    assert!(open_past_run(&WindowRuns::default(), &ws, SESSION, "../etc").is_err());
}

#[test]
fn a_run_without_result_is_listed_as_interrupted() {
    let (_root, ws) = workspace_with_evidence();
    std::fs::remove_file(ws.join("sessions").join(EVIDENCE).join("result.json")).unwrap();
    let detail = view::session_detail(&ws, SESSION).unwrap();
    assert_eq!(
        detail.crashes[0].past_runs[0].outcome,
        PastRunOutcome::Interrupted
    );
    let opened = open_past_run(&WindowRuns::default(), &ws, SESSION, EVIDENCE).unwrap();
    assert!(opened.result.is_none());
    assert_eq!(
        opened.events.len(),
        21,
        "Started and every attempt, no Finished"
    );
}
