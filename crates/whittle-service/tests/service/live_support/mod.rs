//! A live run of a recorded session that crashes, against the real simulator and report
//! server: the shop app of `client_support::MODEL`, a session with detours before the
//! cart → checkout crash, and one whole minimize run of it.

use std::path::{Path, PathBuf};

use serde_json::json;
use tokio_util::sync::CancellationToken;
use whittle_service::client::Hub;
use whittle_service::run::{minimize, RunOutcome, RunSpec};

use crate::client_support::{setup, Setup};

pub const SESSION: &str = "2026-05-14_160354_cart-npe";
const PKG: &str = "com.example.shop";

fn step(index: u32, replay: serde_json::Value) -> String {
    json!({"index": index, "ts": "2026-05-14T16:03:54Z", "action": replay["action_type"],
           "result": "ok", "notes": json!({"replay": replay}).to_string()})
    .to_string()
}

/// launch, then cart/back detours before the cart → checkout that crashes.
fn write_session(s: &Setup) -> PathBuf {
    let dir = s.dir.path().join("workspace/sessions").join(SESSION);
    std::fs::create_dir_all(&dir).unwrap();
    let meta = json!({"session_id": SESSION, "name": "cart-npe", "created_at": "2026-05-14T16:03:54Z",
        "status": "failed", "platform": "android", "package": PKG, "device_id": "sim-1", "extra": {}});
    std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
    let tap = |i, id: &str| {
        step(
            i,
            json!({"action_type": "tap", "element_key": format!("{PKG}:id/{id}")}),
        )
    };
    let back = |i| step(i, json!({"action_type": "press_button", "button": "BACK"}));
    let steps = [
        step(
            1,
            json!({"action_type": "launch", "element_key": format!("{PKG}:id/home_root")}),
        ),
        tap(2, "btn_cart"),
        back(3),
        tap(4, "btn_cart"),
        back(5),
        tap(6, "btn_cart"),
        tap(7, "btn_checkout"),
    ];
    std::fs::write(dir.join("steps.jsonl"), steps.join("\n") + "\n").unwrap();
    let crash = json!({"crash_id": "c1", "ts": "2026-05-14T16:05:00Z", "kind": "java", "process": PKG,
        "stack": "java.lang.NullPointerException: cart is null\n\tat com.example.shop.CheckoutActivity.onClick(CheckoutActivity.java:42)",
        "step_index": 7, "repro_path": [1, 2, 3, 4, 5, 6, 7]});
    std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();
    dir
}

/// The shop app on the simulator with no waits, and the session that crashes in it.
pub fn fast(bin: &Path) -> Setup {
    let s = setup(bin, &[], 20_000, |cfg| {
        cfg["timing"] = json!({"settle_ms": 0, "drain_interval_ms": 20, "action_pause_ms": 0});
    });
    write_session(&s);
    s
}

pub fn options() -> RunSpec {
    let mut opts = RunSpec::new(SESSION);
    opts.device = Some("sim-1".into());
    opts
}

/// One whole minimize run of the session on `sim-1`.
pub async fn run_fresh(s: &Setup) -> RunOutcome {
    let hub = Hub::connect(&s.config).await.unwrap();
    let outcome = minimize(&hub, &s.config, options(), |_| {}, CancellationToken::new())
        .await
        .unwrap();
    hub.shutdown().await;
    outcome
}

/// The id of an evidence session: its folder's name.
pub fn evidence_id(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}
