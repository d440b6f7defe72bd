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

/// A form as issue 29's flows meet it: a field known by its hint, two "Delete" rows (the
/// second is disabled), and a row whose long press crashes.
fn form_model() -> Value {
    let id = |name: &str| format!("{PKG}:id/{name}");
    json!({
      "package": PKG, "version": {"name": "1.0", "code": 1},
      "launch": {"screen": "form"},
      "state": {"typed": "", "deleted": 0},
      "screen_size": [400, 800],
      "screens": {
        "form": {"back": "exit", "elements": [
          {"id": id("query"), "class": "android.widget.EditText", "hint": "Search notes",
           "bounds": [0, 0, 400, 60], "input": {"set": {"typed": "$text"}}},
          {"id": id("delete_a"), "class": "android.widget.Button", "text": "Delete",
           "bounds": [0, 100, 400, 160], "tap": {"incr": {"deleted": 1}}},
          {"id": id("delete_b"), "class": "android.widget.Button", "text": "Delete",
           "bounds": [0, 200, 400, 260], "enabled": false},
          {"id": id("note"), "class": "android.widget.TextView", "text": "Note 1",
           "bounds": [0, 300, 400, 360], "long_press": {"set": {"typed": "menu"}}},
          {"id": id("state"), "class": "android.widget.TextView", "text": "typed=$typed deleted=$deleted",
           "bounds": [0, 500, 400, 560]}
        ]}
      },
      "crashes": [
        {"name": "note-menu", "kind": "java", "on": {"screen": "form", "long_press": id("note")},
         "stack": "FATAL EXCEPTION: main\nProcess: com.example.test, PID: 1111\njava.lang.IllegalStateException: note menu\n\tat com.example.test.Notes.onLongClick(Notes.kt:9)"}
      ],
      "timing": {"launch_ms": 0, "action_ms": 0}
    })
}

async fn call_with(sim: &Sim, tool: &str, strategy: Value, extra: Value) -> Value {
    let mut args = json!({"device": "sim-1", "strategies": [strategy], "settle_ms": 0});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    sim.call(tool, args).await
}

#[tokio::test]
async fn maestro_selectors_long_presses_and_the_focused_field_behave_as_on_a_device() {
    let sim = Sim::start(&form_model(), &[]).await;
    sim.launch("sim-1").await;
    let maestro = |by: &str, value: &str, narrowing: Value| json!({"by": by, "value": value, "maestro": narrowing});
    // The field is found by its hint; the tap gives it the focus, and typing goes there.
    let tapped = call_with(
        &sim,
        "tap_element",
        maestro("text", "search NOTES", json!({})),
        json!({}),
    )
    .await;
    assert_eq!(tapped, json!({"tapped": true}));
    let focused = json!({"by": "focused", "value": ""});
    let typed = call_with(&sim, "input_text", focused, json!({"text": "milk"})).await;
    assert_eq!(typed, json!({"ok": true}));
    // `index: 1` is the second "Delete" from the top; `enabled: true` the first.
    let second = call_with(
        &sim,
        "tap_element",
        maestro("text", "del.*", json!({"index": 1})),
        json!({}),
    )
    .await;
    assert_eq!(second, json!({"tapped": true}));
    let enabled = call_with(
        &sim,
        "tap_element",
        maestro("text", "del.*", json!({"enabled": true})),
        json!({}),
    )
    .await;
    assert_eq!(enabled, json!({"tapped": true}));
    assert!(
        texts(&sim)
            .await
            .contains(&"typed=milk deleted=1".to_string()),
        "{:?}",
        texts(&sim).await
    );
    // A tap on the note is not a long press: no crash; the long press crashes.
    let note = maestro("text", "Note \\d", json!({}));
    call_with(&sim, "tap_element", note.clone(), json!({})).await;
    assert!(sim.crashes("sim-1").await.is_empty());
    let pressed = call_with(&sim, "long_press_element", note, json!({})).await;
    assert_eq!(pressed, json!({"tapped": true}));
    let crashes = sim.crashes("sim-1").await;
    assert_eq!(crashes.len(), 1, "{crashes:?}");
    assert!(crashes[0]["stack"].as_str().unwrap().contains("note menu"));
}
