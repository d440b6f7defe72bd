//! *Minimize all* on a copy of the demo workspace, with the real servers over MCP (the
//! simulator's timing at zero): which crash groups the queue holds and skips, and the
//! queue's controls — pause holds the next item, reordering changes the run order,
//! cancelling a waiting item leaves the rest running, a failing item does not stop it.
//! Budgets are tiny so each item's run is a few replays.

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use whittle_service::api::{
    approve, plan_queue, queue_lanes, Approvable, Queue, QueueEvent, QueueItem, QueuePlan,
    QueueScope, QueueSkipReason, QueueState, Replace, RunRefusal, RunSpec, SessionReadProblem,
};
use whittle_service::config::Config;
use whittle_service::run::{RunEnd, RunEvent};

use crate::client_support::servers_bin;

const CHECKOUT: &str = "2026-05-14_160354_checkout-npe";
const FLAKY: &str = "2026-05-15_101200_flaky-and-anr";
const LEGACY: &str = "2026-05-13_170000_legacy-login";
const BROKEN: &str = "2026-05-16_120000_broken-export";

/// A copy of `demo/` with no waits; its config.
fn demo() -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo"),
        &demo,
    );
    let edit = |file: &str, change: &dyn Fn(&mut Value)| {
        let path = demo.join(file);
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        change(&mut value);
        std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    };
    edit("whittle.json", &|c| {
        c["timing"] = json!({"settle_ms": 0, "drain_interval_ms": 30, "action_pause_ms": 0});
    });
    edit("shop.json", &|m| {
        m["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    });
    let config = Config::load(&demo.join("whittle.json")).unwrap();
    (dir, config)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn budget(max_replays: u32) -> RunSpec {
    RunSpec {
        max_replays: NonZeroU32::new(max_replays).unwrap(),
        ..RunSpec::new("")
    }
}

fn item(session: &str, crash: &str) -> QueueItem {
    QueueItem {
        session: session.into(),
        crash_id: crash.into(),
        label: None,
        package: None,
        skip: None,
        resume: None,
        left_behind: Vec::new(),
    }
}

fn state_of(queue: &Queue, id: u32) -> QueueState {
    queue
        .view()
        .entries
        .into_iter()
        .find(|e| e.id == id)
        .unwrap()
        .state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_result_that_still_validates_is_skipped_unless_asked() {
    if servers_bin().is_none() {
        return;
    }
    let (_dir, config) = demo();
    let ws = config.workspace.clone();

    // The whole workspace: every crash group in order, a session without crashes adds
    // nothing.
    let all = plan_queue(&ws, &QueueScope::Workspace, false).unwrap();
    // The demo's broken session (a truncated steps.jsonl) is reported, not fatal.
    assert_eq!(
        all.unreadable
            .iter()
            .map(|u| u.session.as_str())
            .collect::<Vec<_>>(),
        [BROKEN],
        "{:?}",
        all.unreadable
    );
    let listed: Vec<(&str, &str)> = all
        .items
        .iter()
        .map(|i| (i.session.as_str(), i.crash_id.as_str()))
        .collect();
    assert!(listed.contains(&(CHECKOUT, "c1")) && listed.contains(&(FLAKY, "c2")));
    assert!(!listed.iter().any(|(s, _)| s.contains("browse-no-crash")));
    // The legacy recording is replayable too: queued.
    let legacy = all.items.iter().find(|i| i.session == LEGACY).unwrap();
    assert_eq!(legacy.skip, None, "{legacy:?}");
    assert!(all
        .items
        .iter()
        .all(|i| !matches!(i.skip, Some(QueueSkipReason::AlreadyMinimized { .. }))));

    // Minimize the checkout crash through the queue and approve its result.
    let plan = plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), false).unwrap();
    assert_eq!(plan.items.len(), 1);
    assert_eq!(
        (plan.items[0].crash_id.as_str(), &plan.items[0].skip),
        ("c1", &None)
    );
    assert!(plan.items[0].label.is_some(), "the crash's label");
    let queue = Queue::new(&plan);
    let approved = Mutex::new(None);
    queue
        .run(&config, &budget(30), |event| {
            if let QueueEvent::Ended { result, .. } = event {
                let outcome = result.expect("the run ended with evidence");
                let approvable = Approvable::stamp(outcome.pending.expect("a result to write"));
                approve(&approvable.unwrap(), Replace::OnlyOlder).unwrap();
                *approved.lock().unwrap() = outcome.summary.evidence_session;
            }
        })
        .await;
    let evidence = approved.into_inner().unwrap().expect("approved");

    let again = plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), false).unwrap();
    assert_eq!(
        again.items[0].skip,
        Some(QueueSkipReason::AlreadyMinimized {
            evidence_session: evidence.clone()
        })
    );
    let whole = plan_queue(&ws, &QueueScope::Workspace, false).unwrap();
    let checkout = whole.items.iter().find(|i| i.session == CHECKOUT).unwrap();
    assert!(matches!(
        checkout.skip,
        Some(QueueSkipReason::AlreadyMinimized { .. })
    ));
    let included = plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), true).unwrap();
    assert_eq!(included.items[0].skip, None, "asked to include it");
    // A skipped item is never run: the queue ends at once with it as it was.
    let skipping = Queue::new(&again);
    skipping.run(&config, &budget(1), |_| {}).await;
    assert!(matches!(state_of(&skipping, 1), QueueState::Skipped { .. }));

    // Its evidence gone, the approved result no longer validates: queued again.
    std::fs::remove_dir_all(ws.join("sessions").join(&evidence)).unwrap();
    let gone = plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), false).unwrap();
    assert_eq!(gone.items[0].skip, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_minimized_and_unchanged_since_is_skipped_until_its_session_changes() {
    if servers_bin().is_none() {
        return;
    }
    let (_dir, config) = demo();
    let ws = config.workspace.clone();
    let checkout = || plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), false).unwrap();
    let first = checkout();
    assert_eq!(first.items[0].skip, None, "never run: queued");
    // Minimized by a queue, not approved (no --approve, nobody pressed Approve).
    let queue = Queue::new(&first);
    queue.run(&config, &budget(30), |_| {}).await;
    let QueueState::Finished { summary, .. } = state_of(&queue, 1) else {
        panic!("{:?}", state_of(&queue, 1));
    };
    assert!(summary.end.may_write_back(), "{summary:?}");
    let evidence = summary.evidence_session.expect("its evidence");

    // A second Minimize all minutes later leaves it to be reviewed and approved.
    let again = checkout();
    assert_eq!(
        again.items[0].skip,
        Some(QueueSkipReason::MinimizedUnchanged {
            evidence_session: evidence.clone()
        })
    );
    let whole = plan_queue(&ws, &QueueScope::Workspace, false).unwrap();
    assert_eq!(
        whole
            .items
            .iter()
            .find(|i| i.session == CHECKOUT)
            .unwrap()
            .skip,
        again.items[0].skip,
        "the workspace's queue skips it too"
    );
    let included = plan_queue(&ws, &QueueScope::Session(CHECKOUT.into()), true).unwrap();
    assert_eq!(
        included.items[0].skip, None,
        "include minimized: run anyway"
    );
    assert!(
        included.items[0].resume.is_none() && included.items[0].left_behind.is_empty(),
        "a finished run is nothing to resume or leave behind"
    );

    // Re-recorded (its crash's path without step 4): the result no longer holds for it.
    let crashes = ws.join("sessions").join(CHECKOUT).join("crashes.jsonl");
    let text = std::fs::read_to_string(&crashes).unwrap();
    let mut crash: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    crash["repro_path"] = json!([1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]);
    std::fs::write(&crashes, format!("{crash}\n")).unwrap();
    let changed = checkout();
    assert_eq!(changed.items[0].skip, None, "changed since: queued again");
}

#[test]
fn an_unreadable_session_is_listed_as_skipped_with_its_typed_reason() {
    let (_dir, config) = demo();
    let plan = plan_queue(&config.workspace, &QueueScope::Workspace, false).unwrap();
    let broken = plan
        .unreadable
        .iter()
        .find(|u| u.session == BROKEN)
        .expect("the demo's broken session");
    assert_eq!(broken.problem, SessionReadProblem::Unreadable, "{broken:?}");
    assert!(!broken.detail.is_empty());
    let view = Queue::new(&plan).view();
    let last = view.entries.last().unwrap();
    assert_eq!(
        (last.session.as_str(), last.crash_id.as_deref()),
        (BROKEN, None),
        "listed after the crash groups"
    );
    assert_eq!(
        last.state,
        QueueState::Skipped {
            reason: broken.skip_reason()
        }
    );
    assert_eq!(
        view.entries.len(),
        plan.items.len() + 1,
        "every crash group, and the session that cannot be read"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reordered_cancelled_and_failing_items_leave_the_rest_running() {
    if servers_bin().is_none() {
        return;
    }
    let (_dir, config) = demo();
    let plan = QueuePlan {
        items: vec![
            item(CHECKOUT, "c1"),
            item("2026-01-01_000000_not-here", "c1"),
            item(FLAKY, "c2"),
            item(CHECKOUT, "c1"),
        ],
        unreadable: Vec::new(),
    };
    let queue = Queue::new(&plan);
    assert!(queue.cancel_entry(4), "a waiting entry");
    assert_eq!(state_of(&queue, 4), QueueState::Cancelled);
    assert!(queue.move_entry(3, 0));
    let ended = Mutex::new(Vec::new());
    let tagged = Mutex::new(Vec::new());
    queue
        .run(&config, &budget(2), |event| match event {
            QueueEvent::Ended { entry, .. } => ended.lock().unwrap().push(entry),
            QueueEvent::Run { entry, event } => {
                if let RunEvent::Started { .. } = *event {
                    tagged.lock().unwrap().push(entry);
                }
            }
            QueueEvent::Changed(_) => {}
            QueueEvent::Frame { .. } => panic!("an unwatched queue takes no live frames"),
        })
        .await;
    assert_eq!(
        *ended.lock().unwrap(),
        [3, 1, 2],
        "the moved entry ran first"
    );
    assert_eq!(
        *tagged.lock().unwrap(),
        [3, 1],
        "each run's events carry its id"
    );
    let view = queue.view();
    assert!(!view.running);
    assert_eq!(
        view.entries.iter().map(|e| e.id).collect::<Vec<_>>(),
        [3, 1, 2, 4]
    );
    for id in [3, 1] {
        let QueueState::Finished { summary, .. } = state_of(&queue, id) else {
            panic!("{id}: {:?}", state_of(&queue, id));
        };
        assert!(
            summary.attempts >= 1 && summary.attempts <= 2,
            "{summary:?}"
        );
        assert!(summary.evidence_session.is_some());
    }
    assert!(
        matches!(
            state_of(&queue, 2),
            QueueState::Failed {
                refusal: RunRefusal::SessionNotFound { .. }
            }
        ),
        "{:?}",
        state_of(&queue, 2)
    );
    assert_eq!(state_of(&queue, 4), QueueState::Cancelled, "never ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_two_devices_two_items_run_side_by_side_each_on_its_own_device() {
    if servers_bin().is_none() {
        return;
    }
    let (_dir, config) = demo();
    let template = budget(3);
    let lanes = queue_lanes(&config, &template).await;
    assert_eq!(
        lanes.iter().map(|l| l.device.as_str()).collect::<Vec<_>>(),
        ["sim-1", "sim-2"],
        "the demo's two simulated devices"
    );
    assert!(lanes.iter().all(|l| l.fits(Some("com.example.shop"))));
    assert!(!lanes[0].fits(Some("com.example.other")));
    let pinned = RunSpec {
        device: Some("sim-2".into()),
        ..budget(3)
    };
    assert!(
        queue_lanes(&config, &pinned).await.is_empty(),
        "a named device: one at a time"
    );
    let pooled = RunSpec {
        devices: NonZeroU32::new(2).unwrap(),
        ..budget(3)
    };
    assert!(
        queue_lanes(&config, &pooled).await.is_empty(),
        "a pool: each run spreads its own"
    );

    let plan = plan_queue(&config.workspace, &QueueScope::Session(FLAKY.into()), true).unwrap();
    assert_eq!(plan.items.len(), 2);
    assert!(plan
        .items
        .iter()
        .all(|i| i.package.as_deref() == Some("com.example.shop")));
    let queue = Queue::new(&plan);
    queue.side_by_side(lanes);
    let most_running = Mutex::new(0);
    let devices = Mutex::new(Vec::new());
    queue
        .run(&config, &template, |event| match event {
            QueueEvent::Changed(view) => {
                let running = view
                    .entries
                    .iter()
                    .filter(|e| matches!(e.state, QueueState::Running { .. }))
                    .count();
                let mut most = most_running.lock().unwrap();
                *most = (*most).max(running);
            }
            QueueEvent::Run { entry, event } => {
                if let RunEvent::Started { devices: used, .. } = *event {
                    devices.lock().unwrap().push((entry, used));
                }
            }
            _ => {}
        })
        .await;
    assert_eq!(*most_running.lock().unwrap(), 2, "both items ran at once");
    let mut devices = devices.into_inner().unwrap();
    devices.sort();
    assert_eq!(
        devices,
        [
            (1, vec!["sim-1".to_string()]),
            (2, vec!["sim-2".to_string()])
        ],
        "each item alone on its own device"
    );
    for e in queue.view().entries {
        let QueueState::Finished { summary, .. } = &e.state else {
            panic!("{}: {:?}", e.id, e.state);
        };
        assert!(
            summary.attempts >= 1 && summary.attempts <= 3,
            "{summary:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_holds_the_next_item_until_resumed_and_a_running_item_cancels() {
    if servers_bin().is_none() {
        return;
    }
    let (_dir, config) = demo();
    let plan = QueuePlan {
        items: vec![item(CHECKOUT, "c1"), item(FLAKY, "c2")],
        unreadable: Vec::new(),
    };
    let queue = Arc::new(Queue::new(&plan));
    let views: Arc<Mutex<Vec<bool>>> = Arc::default();
    let driver = {
        let (queue, views) = (Arc::clone(&queue), Arc::clone(&views));
        tokio::spawn(async move {
            let q = Arc::clone(&queue);
            queue
                .run(&config, &budget(2), move |event| match event {
                    // Paused as soon as the first item starts; it runs to its end.
                    QueueEvent::Run { entry: 1, event }
                        if matches!(*event, RunEvent::Started { .. }) =>
                    {
                        q.pause()
                    }
                    // The second item is cancelled as soon as it starts.
                    QueueEvent::Run { entry: 2, event }
                        if matches!(*event, RunEvent::Started { .. }) =>
                    {
                        assert!(q.cancel_entry(2))
                    }
                    QueueEvent::Changed(view) => views.lock().unwrap().push(view.paused),
                    _ => {}
                })
                .await;
        })
    };
    let finished = |q: &Queue| matches!(state_of(q, 1), QueueState::Finished { .. });
    wait_until(|| finished(&queue)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let view = queue.view();
    assert!(view.paused && view.running, "{view:?}");
    assert_eq!(
        state_of(&queue, 2),
        QueueState::Waiting,
        "held while paused"
    );
    assert!(views.lock().unwrap().contains(&true), "the pause was shown");

    queue.resume();
    tokio::time::timeout(Duration::from_secs(120), driver)
        .await
        .unwrap()
        .unwrap();
    match state_of(&queue, 2) {
        QueueState::Finished { summary, .. } => assert_eq!(summary.end, RunEnd::Cancelled),
        QueueState::Cancelled => {}
        other => panic!("{other:?}"),
    }
    assert!(!queue.view().running);
}

async fn wait_until(done: impl Fn() -> bool) {
    for _ in 0..1200 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out");
}
