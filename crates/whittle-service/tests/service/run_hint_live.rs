//! The hint a run ends with (`api::run_hint`), against the real simulator: decided where
//! the run ends, from the baseline tries it had. A baseline that misses on its only try
//! gives `MoreBaselineTries` on the outcome (the terminal, `whittle mcp`, the queue), on
//! the result view the window's banner reads, and again on the run reopened from its
//! evidence; a baseline that missed every one of several tries gives none.

use crate::{client_support, live_support};

use std::num::NonZeroU32;

use client_support::{servers_bin, Setup};
use live_support::{evidence_id, fast, options, SESSION};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use whittle_service::api::{reopen, result_view, ResultFacts, RunHint};
use whittle_service::client::Hub;
use whittle_service::run::{minimize, RunEnd, RunOutcome};
use whittle_text::Locale;

/// The recorded crash is one the app never throws on the recorded path: every replay
/// ends without crashing the same way.
fn crash_elsewhere(s: &Setup) {
    let crash = json!({"crash_id": "c1", "ts": "2026-05-14T16:05:00Z", "kind": "java",
        "process": "com.example.shop",
        "stack": "java.lang.IllegalStateException: promo gone\n\tat com.example.shop.PromoActivity.onResume(PromoActivity.java:7)",
        "step_index": 7, "repro_path": [1, 2, 3, 4, 5, 6, 7]});
    let dir = s.dir.path().join("workspace/sessions").join(SESSION);
    std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();
}

async fn run_with_tries(s: &Setup, tries: u32) -> RunOutcome {
    let mut spec = options();
    spec.baseline_tries = NonZeroU32::new(tries).unwrap();
    let hub = Hub::connect(&s.config).await.unwrap();
    let outcome = minimize(&hub, &s.config, spec, |_| {}, CancellationToken::new())
        .await
        .unwrap();
    hub.shutdown().await;
    outcome
}

/// The hint of `outcome` as the window gets it: live, and reopened from its evidence.
fn window_hints(s: &Setup, outcome: &RunOutcome) -> (Option<RunHint>, Option<RunHint>) {
    let workspace = s.dir.path().join("workspace");
    let live = result_view(&workspace, &ResultFacts::live(outcome, Locale::En)).hint;
    let evidence = evidence_id(outcome.evidence_dir.as_deref().unwrap());
    let reopened = reopen(&workspace, SESSION, &evidence, None)
        .unwrap()
        .run
        .result
        .expect("the run left its result")
        .hint;
    (live, reopened)
}

#[tokio::test]
async fn a_baseline_miss_on_its_only_try_hints_at_more_tries_live_and_reopened() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    crash_elsewhere(&s);
    let outcome = run_with_tries(&s, 1).await;
    assert_eq!(
        outcome.summary.end,
        RunEnd::NotReproduced,
        "{}",
        outcome.report
    );
    assert_eq!(outcome.summary.attempts, 1);
    assert_eq!(outcome.hint, Some(RunHint::MoreBaselineTries));
    let hint = Some(RunHint::MoreBaselineTries);
    assert_eq!(window_hints(&s, &outcome), (hint, hint));
}

#[tokio::test]
async fn a_baseline_that_missed_several_tries_gives_no_hint() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    crash_elsewhere(&s);
    let outcome = run_with_tries(&s, 3).await;
    assert_eq!(
        outcome.summary.end,
        RunEnd::NotReproduced,
        "{}",
        outcome.report
    );
    assert_eq!(outcome.summary.attempts, 3, "every try replayed");
    assert_eq!(outcome.hint, None);
    assert_eq!(window_hints(&s, &outcome), (None, None));
}

#[tokio::test]
async fn a_run_with_a_result_gives_no_hint() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    let outcome = run_with_tries(&s, 1).await;
    assert_eq!(outcome.summary.end, RunEnd::Minimized, "{}", outcome.report);
    assert_eq!(outcome.hint, None);
    assert_eq!(window_hints(&s, &outcome), (None, None));
}
