//! Screenshots (real PNGs of the current screen) and the logcat capture.
use crate::sim_support;

use serde_json::json;
use sim_support::{test_model, Sim};

fn distinct_colors(img: &image::RgbImage, b: [u32; 4]) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    for y in b[1]..b[3] {
        for x in b[0]..b[2] {
            seen.insert(img.get_pixel(x, y).0);
        }
    }
    seen.len()
}

#[tokio::test]
async fn screenshot_is_a_png_of_the_model_size_with_text_drawn_in_elements() {
    let sim = Sim::start(&test_model(), &[]).await;
    sim.launch("sim-1").await;
    sim.tap("sim-1", "t:id/next").await;
    let before_path = sim.path("before.png");
    let shot = sim
        .call(
            "mobile_save_screenshot",
            json!({"device": "sim-1", "saveTo": before_path}),
        )
        .await;
    assert_eq!(
        (shot["width"].as_u64(), shot["height"].as_u64()),
        (Some(400), Some(800))
    );
    assert_eq!(shot["path"], before_path.to_str().unwrap());
    let before = image::open(&before_path).unwrap().to_rgb8();
    assert_eq!(before.dimensions(), (400, 800));
    // The label "n=0" is drawn: its box holds ink besides border and fill.
    assert!(distinct_colors(&before, [20, 300, 380, 380]) >= 3);
    // The e-mail box is empty: border and fill only.
    let email_box = [20, 100, 380, 180];
    assert_eq!(distinct_colors(&before, email_box), 2);

    sim.input("sim-1", "t:id/email", "jane@example.com").await;
    sim.input("sim-1", "t:id/pin", "1234").await;
    let after_path = sim.path("after.png");
    sim.call(
        "mobile_save_screenshot",
        json!({"device": "sim-1", "saveTo": after_path}),
    )
    .await;
    let after = image::open(&after_path).unwrap().to_rgb8();
    assert!(
        distinct_colors(&after, email_box) >= 3,
        "typed e-mail is visible"
    );
    let differs = |b: [u32; 4]| {
        (b[1]..b[3]).any(|y| (b[0]..b[2]).any(|x| before.get_pixel(x, y) != after.get_pixel(x, y)))
    };
    assert!(differs(email_box));
    assert!(differs([20, 200, 380, 280]), "password dots drawn");
    assert!(!differs([20, 300, 380, 380]), "label unchanged");

    sim.terminate("sim-1").await;
    let closed_path = sim.path("closed.png");
    sim.call(
        "mobile_save_screenshot",
        json!({"device": "sim-1", "saveTo": closed_path}),
    )
    .await;
    let closed = image::open(&closed_path).unwrap().to_rgb8();
    assert_eq!(closed.dimensions(), (400, 800));
    assert_ne!(
        closed.get_pixel(200, 140),
        after.get_pixel(200, 140),
        "launcher, not the app"
    );
}

#[tokio::test]
async fn screenshot_refuses_relative_or_dangling_paths() {
    let sim = Sim::start(&test_model(), &[]).await;
    let err = sim
        .call_err(
            "mobile_save_screenshot",
            json!({"device": "sim-1", "saveTo": "shot.png"}),
        )
        .await;
    assert!(err.contains("absolute"), "{err}");
    let missing = sim.path("no/such/dir/shot.png");
    sim.call_err(
        "mobile_save_screenshot",
        json!({"device": "sim-1", "saveTo": missing}),
    )
    .await;
}

#[tokio::test]
async fn capture_writes_logcat_with_events_and_crash_but_no_typed_text() {
    let sim = Sim::start(&test_model(), &[]).await;
    let session_dir = sim.dir.path().join("session");
    std::fs::create_dir(&session_dir).unwrap();
    let started = sim.start_capture("s1", &session_dir, "sim-1").await;
    assert_eq!(started["status"], "running");
    let list = sim.call("list_captures", json!({})).await;
    assert_eq!(
        list["captures"],
        json!([{"session_id": "s1", "status": "running"}])
    );

    sim.launch("sim-1").await;
    sim.tap("sim-1", "t:id/inc").await;
    sim.tap("sim-1", "t:id/inc").await;
    sim.tap("sim-1", "t:id/next").await;
    sim.input("sim-1", "t:id/email", "secret.person@example.com")
        .await;
    // Back with an e-mail entered is the model's ANR.
    sim.back("sim-1").await;

    let stopped = sim.call("stop_capture", json!({"session_id": "s1"})).await;
    assert_eq!(stopped["stopped"], true);
    assert_eq!(stopped["status"], "stopped");
    let log_path = stopped["log_path"].as_str().unwrap();
    assert_eq!(
        std::path::Path::new(log_path),
        session_dir.join("logcat.txt")
    );
    let log = std::fs::read_to_string(log_path).unwrap();
    assert!(log.contains("Start proc"), "{log}");
    assert!(log.contains("tap t:id/inc"), "{log}");
    assert!(
        log.contains("E ActivityManager: ANR in com.example.test"),
        "{log}"
    );
    assert!(
        log.contains("E ActivityManager:   at com.example.test.Form.onBack(Form.kt:"),
        "{log}"
    );
    assert!(log.contains("Sending signal."), "{log}");
    assert!(
        !log.contains("secret.person"),
        "typed text must not reach the log"
    );

    let list = sim.call("list_captures", json!({})).await;
    assert_eq!(list["captures"][0]["status"], "stopped");
    // Nothing more is written after stop.
    sim.launch("sim-1").await;
    assert_eq!(std::fs::read_to_string(log_path).unwrap(), log);

    let err = sim
        .call_err(
            "start_capture",
            json!({"session_id": "s2", "session_dir": "relative/dir", "device": "sim-1"}),
        )
        .await;
    assert!(err.contains("absolute"), "{err}");
    let unknown = sim
        .call("stop_capture", json!({"session_id": "nope"}))
        .await;
    assert_eq!(unknown["stopped"], false);
}
