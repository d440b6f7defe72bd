//! Element matching through the simulator's real MCP server, on a model whose elements
//! carry text the way devices report it (trailing spaces, no-break spaces) and ids with
//! and without a package: the same rules as the adb server (`element_match`). (A model
//! cannot hold a zero-size element; the adb tests cover those.)
use crate::sim_support;

use serde_json::{json, Value};
use sim_support::{Sim, PKG};

fn model() -> Value {
    let id = |name: &str| format!("{PKG}:id/{name}");
    json!({
      "package": PKG, "version": {"name": "1.0", "code": 1},
      "launch": {"screen": "home"},
      "state": {"paid": false},
      "screen_size": [400, 800],
      "screens": {
        "home": {"back": "exit", "elements": [
          {"id": id("title"), "class": "android.widget.TextView", "text": "SIGN UP",
           "bounds": [0, 0, 400, 60], "visible": false},
          {"id": id("btn_signup"), "class": "android.widget.Button", "text": "SIGN UP ",
           "bounds": [20, 100, 380, 180]},
          {"id": id("btn_pay"), "class": "android.widget.Button", "text": "Pay\u{a0}now\u{202f}",
           "desc": "Pay\u{2007}now", "bounds": [20, 200, 380, 280], "tap": {"set": {"paid": true}}},
          {"id": "rn-next", "class": "android.view.ViewGroup", "text": "Next",
           "bounds": [20, 400, 380, 480], "tap": {"goto": "next"}},
          {"id": id("state"), "class": "android.widget.TextView", "text": "paid=$paid",
           "bounds": [20, 500, 380, 560]}
        ]},
        "next": {"back": "home", "elements": [
          {"id": id("done"), "class": "android.widget.TextView", "text": "Done", "bounds": [0, 0, 400, 60]}
        ]}
      },
      "crashes": [
        {"name": "signup", "kind": "java", "on": {"screen": "home", "tap": id("btn_signup")},
         "stack": "FATAL EXCEPTION: main\nProcess: com.example.test, PID: 1111\njava.lang.IllegalStateException: sign up\n\tat com.example.test.SignUp.onClick(SignUp.kt:3)"}
      ],
      "timing": {"launch_ms": 0, "action_ms": 0}
    })
}

fn strategy(by: &str, value: &str) -> Value {
    json!([{"by": by, "value": value}])
}

async fn tap(sim: &Sim, by: &str, value: &str) -> Value {
    sim.call(
        "tap_element",
        json!({"device": "sim-1", "strategies": strategy(by, value), "settle_ms": 0}),
    )
    .await
}

/// The texts on the current screen, leaving out the app window's text-less root node.
async fn texts(sim: &Sim) -> Vec<String> {
    let h = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    h["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[tokio::test]
async fn a_trailing_space_is_found_and_the_visible_element_is_the_one_tapped() {
    let sim = Sim::start(&model(), &[]).await;
    sim.launch("sim-1").await;
    // The hierarchy reports text as the app set it; only matching normalizes.
    assert!(texts(&sim).await.contains(&"SIGN UP ".to_string()));
    // The exact "SIGN UP" is hidden: the visible "SIGN UP " is tapped (and crashes).
    assert_eq!(tap(&sim, "text", "SIGN UP").await, json!({"tapped": true}));
    let crashes = sim.crashes("sim-1").await;
    assert_eq!(crashes.len(), 1, "{crashes:?}");
    assert!(crashes[0]["stack"].as_str().unwrap().contains("sign up"));

    // An id without its package finds the same button.
    sim.launch("sim-1").await;
    sim.clear("sim-1").await;
    assert_eq!(
        tap(&sim, "identifier", "btn_signup").await,
        json!({"tapped": true})
    );
    assert_eq!(sim.crashes("sim-1").await.len(), 1);
}

#[tokio::test]
async fn no_break_spaces_and_ids_across_package_prefixes() {
    let sim = Sim::start(&model(), &[]).await;
    sim.launch("sim-1").await;
    assert_eq!(
        tap(&sim, "label", " Pay now ").await,
        json!({"tapped": true})
    );
    assert!(texts(&sim).await.contains(&"paid=true".to_string()));
    let found = sim
        .call(
            "wait_for_element",
            json!({"device": "sim-1", "strategies": strategy("text", "Pay now"), "timeout_ms": 0}),
        )
        .await;
    assert_eq!(found, json!({"found": true}));

    let missing = json!({"tapped": false, "reason": "element_not_found"});
    assert_eq!(tap(&sim, "text", "Pay").await, missing, "part of a text");
    assert_eq!(
        tap(&sim, "identifier", "other.app:id/btn_pay").await,
        missing
    );

    // A React Native testID (no prefix) named with the app's package.
    assert_eq!(
        tap(&sim, "identifier", &format!("{PKG}:id/rn-next")).await,
        json!({"tapped": true})
    );
    assert_eq!(texts(&sim).await, ["Done"]);

    // Screenshots draw the no-break spaces as spaces, without trouble.
    sim.back("sim-1").await;
    let png = sim.path("home.png");
    let shot = sim
        .call(
            "mobile_save_screenshot",
            json!({"device": "sim-1", "saveTo": png}),
        )
        .await;
    assert_eq!(
        (shot["width"].clone(), shot["height"].clone()),
        (json!(400), json!(800))
    );
    assert!(sim.crashes("sim-1").await.is_empty());
}
