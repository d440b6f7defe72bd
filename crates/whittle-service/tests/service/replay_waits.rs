//! Evidence waits against the real simulator over stdio: a crash that lands after the
//! last action (the simulator's `delay_ms`) must still be in THIS replay's verdict when
//! the settle ends early on a stable screen, and must not leak into the next replay.
use crate::client_support;

use std::time::{Duration, Instant};

use client_support::{servers_bin, setup};
use serde_json::json;
use whittle_contract::ui::{By, Strategy};
use whittle_core::model::CrashKind;
use whittle_core::plan::{ReplayAction, ReplayStep};
use whittle_service::client::Hub;
use whittle_service::config::WaitMode;
use whittle_service::replay::{replay, ReplayContext, ReplayVerdict, TargetIdentity};

const STACK: &str = "java.lang.NullPointerException: cart is null\n\tat com.example.shop.CheckoutActivity.onClick(CheckoutActivity.java:42)";
/// As the demo's delayed crash (`demo/shop.json`, `ioobe-search-flaky`: 200 ms).
const DELAY_MS: u64 = 200;

fn tap(index: u32, id: &str) -> ReplayStep {
    ReplayStep {
        index,
        action: ReplayAction::Tap {
            strategy: Strategy::new(By::Identifier, format!("com.example.shop:id/{id}")),
        },
    }
}

struct Rig {
    hub: Hub,
    ctx: ReplayContext,
    _dir: tempfile::TempDir,
}

/// The test app with its checkout crash delivered `DELAY_MS` after the tap returns, and
/// the demo's drain interval (250 ms) and action pause (100 ms) with a long 2 s settle
/// bound, so an early end of the settle is unmistakable.
async fn rig(bin: &std::path::Path, wait: WaitMode) -> Rig {
    let s = setup(bin, &[], 30_000, |cfg| {
        cfg["timing"] = json!({
            "settle_ms": 2000, "drain_interval_ms": 250, "action_pause_ms": 100,
            "wait": match wait { WaitMode::Evidence => "evidence", WaitMode::Fixed => "fixed" },
        });
    });
    let model_path = s.dir.path().join("shop.json");
    let mut model: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&model_path).unwrap()).unwrap();
    model["crashes"][0]["delay_ms"] = json!(DELAY_MS);
    std::fs::write(&model_path, model.to_string()).unwrap();

    let hub = Hub::connect(&s.config).await.unwrap();
    let signature = hub
        .analyzer()
        .compute_signature(STACK, Some(CrashKind::Java))
        .await
        .unwrap();
    let ctx = ReplayContext {
        device: "sim-1".into(),
        package: "com.example.shop".into(),
        launch_anchor: Some(Strategy::new(
            By::Identifier,
            "com.example.shop:id/home_root",
        )),
        target: TargetIdentity::Fingerprint {
            fingerprint: signature.fingerprint.expect("a stable java fingerprint"),
        },
        timing: s.config.timing_for("sim-1"),
    };
    assert_eq!(ctx.timing.wait, wait);
    Rig {
        hub,
        ctx,
        _dir: s.dir,
    }
}

async fn timed(rig: &Rig, steps: &[ReplayStep]) -> (ReplayVerdict, Duration) {
    let refs: Vec<&ReplayStep> = steps.iter().collect();
    let start = Instant::now();
    let verdict = replay(&rig.hub, &rig.ctx, &refs).await.unwrap();
    (verdict, start.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delayed_crash_lands_in_the_same_replay_with_evidence_waits() {
    let Some(bin) = servers_bin() else { return };
    let crashing = [tap(2, "btn_cart"), tap(3, "btn_checkout")];

    let mut took = Vec::new();
    for wait in [WaitMode::Evidence, WaitMode::Fixed] {
        let rig = rig(&bin, wait).await;
        let (verdict, elapsed) = timed(&rig, &crashing).await;
        assert!(verdict.reproduced, "{wait:?}: {verdict:?}");
        assert_eq!(
            verdict.signature.as_deref(),
            Some(match &rig.ctx.target {
                TargetIdentity::Fingerprint { fingerprint } => fingerprint.as_str(),
                TargetIdentity::Degraded { .. } => unreachable!(),
            })
        );
        assert_eq!(verdict.observed.len(), 1, "{wait:?}: {verdict:?}");

        // The next replay starts clean: the crash was drained, not left behind.
        let (next, _) = timed(&rig, &[tap(2, "btn_cart")]).await;
        assert!(!next.reproduced, "{wait:?}: {next:?}");
        assert_eq!(next.reason.map(|r| r.as_str()), Some("no_crash"));
        assert!(next.observed.is_empty(), "{wait:?}: {next:?}");

        took.push(elapsed);
        rig.hub.shutdown().await;
    }
    let (evidence, fixed) = (took[0], took[1]);
    println!("crashing replay: evidence {evidence:?}, fixed {fixed:?}");
    // Fixed sleeps 100 + 2000 ms before its drain; evidence ends both waits on the
    // stable screen, so it must be clearly faster while reaching the same verdict.
    assert!(
        fixed >= Duration::from_millis(2100 + 250),
        "fixed waited {fixed:?}"
    );
    assert!(
        evidence + Duration::from_millis(1000) < fixed,
        "evidence {evidence:?} vs fixed {fixed:?}"
    );
}
