//! Parallel replay needs the simulator to run replays on different devices at the same
//! time over one stdio connection: the world lock must not be held across the
//! simulated launch and action delays.
use crate::sim_support;

use std::time::{Duration, Instant};

use serde_json::json;
use sim_support::{test_model, Sim};

/// One replay as the driver runs it: clean start, one tap, the crash list.
async fn replay(sim: &Sim, device: &str) -> (Instant, Instant) {
    let started = Instant::now();
    sim.terminate(device).await;
    sim.launch(device).await;
    sim.tap(device, "t:id/inc").await;
    sim.crashes(device).await;
    (started, Instant::now())
}

#[tokio::test]
async fn replays_on_two_devices_overlap_in_time() {
    let mut model = test_model();
    model["timing"] = json!({"launch_ms": 300, "action_ms": 100});
    let sim = Sim::start(&model, &["--devices", "2"]).await;
    // Warm up the connection so the first measured call pays no start-up cost.
    sim.call("mobile_list_available_devices", json!({})).await;

    let (one_start, one_end) = replay(&sim, "sim-1").await;
    let one = one_end - one_start;
    assert!(one >= Duration::from_millis(400), "{one:?}");

    let ((a_start, a_end), (b_start, b_end)) =
        tokio::join!(replay(&sim, "sim-1"), replay(&sim, "sim-2"));
    // Overlap counted from timestamps: each replay started before the other ended, and
    // they shared most of their time (a serialized pair would share none of it).
    let overlap = a_end
        .min(b_end)
        .saturating_duration_since(a_start.max(b_start));
    assert!(overlap >= Duration::from_millis(250), "overlap {overlap:?}");
    let both = a_end.max(b_end) - a_start.min(b_start);
    assert!(
        both.as_secs_f64() < 1.6 * one.as_secs_f64(),
        "two devices {both:?} vs one {one:?}"
    );
}
