//! The inspector on a real run's evidence (issue 32): every archived screenshot keeps the
//! hierarchy it shows, in its pixels; a point gives the nodes there with the selector a
//! tester copies; on an attempt that stopped at "element not found", the nodes listed as
//! nearest are the screen's, none of them the missing element itself.

use whittle_core::engine::MissReason;
use whittle_service::api::{inspect_point, nearest_to_step};
use whittle_service::evidence::{review_shot, PictureName};
use whittle_service::run::{read_recorded_run, AttemptVerdict};

use crate::client_support::servers_bin;
use crate::live_support::{evidence_id, fast, run_fresh};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_screenshots_can_be_asked_what_they_show() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    let outcome = run_fresh(&s).await;
    let workspace = s.config.workspace.to_string_lossy().into_owned();
    let evidence_dir = s
        .config
        .workspace
        .join("sessions")
        .join(outcome.summary.evidence_session.as_deref().unwrap());
    let evidence = evidence_id(&evidence_dir);
    let run = read_recorded_run(&evidence_dir).unwrap();

    let mut inspected = 0;
    let mut not_found = 0;
    for attempt in &run.attempts {
        let Some(shot) = &attempt.screenshot else {
            continue;
        };
        let picture: PictureName = shot.parse().unwrap();
        let record = review_shot(&evidence_dir, picture).unwrap().record;
        if record.nodes.is_empty() {
            continue; // a blank frame (the app gone after the crash) shows no node
        }
        // The middle of the first node with an id gives that node, with its selector.
        let Some(node) = record.nodes.iter().find(|n| !n.resource_id.is_empty()) else {
            continue;
        };
        let [l, t, r, b] = node.bounds;
        let under = inspect_point(&workspace, &evidence, shot, (l + r) / 2, (t + b) / 2).unwrap();
        let found = under
            .iter()
            .find(|n| n.resource_id == node.resource_id)
            .unwrap_or_else(|| panic!("{} not under its own middle: {under:?}", node.resource_id));
        assert_eq!(
            found.maestro.as_deref(),
            Some(format!("id: {:?}", node.resource_id).as_str())
        );
        assert_eq!(
            found.robo.as_deref(),
            Some(
                serde_json::json!({"resourceId": node.resource_id})
                    .to_string()
                    .as_str()
            )
        );
        // Every listed node contains the point.
        for n in &under {
            let [l2, t2, r2, b2] = n.bounds;
            assert!(l2 <= (l + r) / 2 && (l + r) / 2 < r2 && t2 <= (t + b) / 2 && (t + b) / 2 < b2);
        }
        inspected += 1;

        if let AttemptVerdict::NotReproduced {
            reason: MissReason::ElementNotFound,
            step: Some(step),
        } = attempt.verdict
        {
            let near = nearest_to_step(&workspace, &evidence, shot, step).unwrap();
            assert!(near.windows(2).all(|w| w[0].score >= w[1].score));
            // Not found means not there: nothing scores as the element itself.
            assert!(near.iter().all(|n| n.score < 1.0), "{near:?}");
            not_found += 1;
        }
    }
    assert!(inspected >= 3, "only {inspected} screenshots had nodes");
    assert!(
        not_found >= 1,
        "the run had no 'element not found' attempt to look at"
    );
}
