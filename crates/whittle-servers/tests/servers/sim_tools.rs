//! The simulator's tool surface over real stdio MCP: names, devices, apps, hierarchy,
//! navigation and refusals.
use crate::answer_support;
use crate::sim_support;

use serde_json::json;
use sim_support::{test_model, Sim, PKG};
use whittle_contract::{log, mobile, ui, Role};

#[tokio::test]
async fn lists_every_mobile_ui_and_log_tool_of_the_contract() {
    let sim = Sim::start(&test_model(), &[]).await;
    let tools = sim.client.list_all_tools().await.unwrap();
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    // Whittle's own servers serve the optional tools too.
    for role in [Role::Mobile, Role::Ui, Role::Log] {
        for tool in role.required_tools().iter().chain(role.optional_tools()) {
            assert!(
                names.iter().any(|n| n == tool),
                "{role} tool {tool} missing from {names:?}"
            );
        }
    }
    assert_eq!(
        names.len(),
        mobile::TOOLS.len() + ui::TOOLS.len() + ui::OPTIONAL_TOOLS.len() + log::TOOLS.len()
    );
}

#[tokio::test]
async fn devices_and_apps_look_like_an_android_emulator() {
    let sim = Sim::start(&test_model(), &["--devices", "3"]).await;
    let devices = sim.call("mobile_list_available_devices", json!({})).await;
    let ids = answer_support::device_ids(&devices);
    assert_eq!(ids, ["sim-1", "sim-2", "sim-3"]);
    let d = &devices["devices"][0];
    assert_eq!(
        (
            d["platform"].as_str(),
            d["type"].as_str(),
            d["state"].as_str()
        ),
        (Some("android"), Some("emulator"), Some("online"))
    );

    let apps = sim
        .call("mobile_list_apps", json!({"device": "sim-2"}))
        .await;
    let apps = apps["apps"].as_array().unwrap();
    let app = apps.iter().find(|a| a["package"] == PKG).unwrap();
    assert_eq!(app["system"], false);
    assert_eq!(app["version_name"], "1.0");
    assert_eq!(app["version_code"], 1);
    assert!(apps
        .iter()
        .any(|a| a["package"] == "com.android.settings" && a["system"] == true));
    assert!(apps.iter().filter(|a| a["system"] == true).count() >= 2);

    let err = sim
        .call_err("mobile_list_apps", json!({"device": "sim-9"}))
        .await;
    assert!(err.contains("sim-9"), "{err}");
    let err = sim
        .call_err(
            "mobile_launch_app",
            json!({"device": "sim-1", "packageName": "com.other"}),
        )
        .await;
    assert!(err.contains("com.other"), "{err}");
}

#[tokio::test]
async fn hierarchy_shows_typed_text_state_and_password_flags() {
    let sim = Sim::start(&test_model(), &[]).await;
    let empty = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    assert_eq!(
        empty["elements"].as_array().unwrap().len(),
        0,
        "nothing of the app before launch"
    );

    sim.launch("sim-1").await;
    let found = sim.call("wait_for_element", json!({"device": "sim-1", "strategies": [{"by": "identifier", "value": "t:id/root"}], "timeout_ms": 0})).await;
    assert_eq!(found["found"], true);
    let home = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    let hidden = home["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["resource_id"] == "t:id/hidden")
        .unwrap();
    assert_eq!(hidden["visible"], false);
    let tap_hidden = sim.tap("sim-1", "t:id/hidden").await;
    assert_eq!(
        tap_hidden,
        json!({"tapped": false, "reason": "element_not_found"})
    );

    sim.tap("sim-1", "t:id/inc").await;
    // By text and by label work too; strategies are tried in order.
    let by_text = sim.call("tap_element", json!({"device": "sim-1", "strategies": [{"by": "text", "value": "nope"}, {"by": "text", "value": "Next"}]})).await;
    assert_eq!(by_text["tapped"], true);
    sim.input("sim-1", "t:id/email", "jane.doe@example.com")
        .await;
    sim.input("sim-1", "t:id/pin", "1234").await;
    let form = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    let el = |id: &str| {
        form["elements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["resource_id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(el("t:id/email")["text"], "jane.doe@example.com");
    assert_eq!(el("t:id/email")["password"], false);
    assert_eq!(el("t:id/pin")["password"], true);
    assert_eq!(el("t:id/pin")["focused"], true);
    assert_eq!(el("t:id/label")["text"], "n=1");
    assert_eq!(el("t:id/label")["bounds"], json!([20, 300, 380, 380]));

    let not_editable = sim.input("sim-1", "t:id/label", "x").await;
    assert_eq!(not_editable["ok"], false);
    let wait_gone = sim.call("wait_for_element", json!({"device": "sim-1", "strategies": [{"by": "label", "value": "boom button"}], "timeout_ms": 100})).await;
    assert_eq!(wait_gone["found"], false);
}

#[tokio::test]
async fn back_navigates_then_exits_and_actions_need_a_running_app() {
    let sim = Sim::start(&test_model(), &[]).await;
    assert_eq!(
        sim.tap("sim-1", "t:id/inc").await,
        json!({"tapped": false, "reason": "app_not_running"})
    );
    assert_eq!(
        sim.input("sim-1", "t:id/email", "x").await,
        json!({"ok": false, "reason": "app_not_running"})
    );
    assert_eq!(
        sim.back("sim-1").await,
        json!({"ok": false, "reason": "app_not_running"})
    );

    sim.launch("sim-1").await;
    sim.tap("sim-1", "t:id/next").await;
    assert_eq!(sim.back("sim-1").await["ok"], true);
    assert_eq!(
        sim.tap("sim-1", "t:id/inc").await["tapped"],
        true,
        "back on form leads home"
    );
    assert_eq!(sim.back("sim-1").await["ok"], true);
    assert_eq!(
        sim.tap("sim-1", "t:id/inc").await["reason"],
        "app_not_running",
        "back on home exits"
    );

    let err = sim
        .call_err(
            "mobile_press_button",
            json!({"device": "sim-1", "button": "HOME"}),
        )
        .await;
    assert!(err.contains("HOME"), "{err}");

    sim.launch("sim-1").await;
    sim.terminate("sim-1").await;
    assert_eq!(
        sim.tap("sim-1", "t:id/inc").await["reason"],
        "app_not_running"
    );
}

#[tokio::test]
async fn launch_starts_fresh_from_the_model_state() {
    let sim = Sim::start(&test_model(), &[]).await;
    sim.launch("sim-1").await;
    sim.tap("sim-1", "t:id/inc").await;
    sim.tap("sim-1", "t:id/next").await;
    sim.input("sim-1", "t:id/email", "a@b.c").await;
    let again = sim.launch("sim-1").await;
    assert_eq!(
        again["already_running"], true,
        "launch of a running app only resumes it"
    );
    sim.terminate("sim-1").await;
    sim.launch("sim-1").await;
    sim.tap("sim-1", "t:id/next").await;
    let form = sim.call("get_hierarchy", json!({"device": "sim-1"})).await;
    let texts: Vec<&str> = form["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    // The window's root view first (as a real dump lists it), then the screen's elements.
    assert_eq!(texts, ["", "", "", "n=0"]);
}

#[tokio::test]
async fn a_bad_model_is_refused_naming_the_field() {
    let mut model = test_model();
    model["screens"]["home"]["elements"][1]["tap"]["gotoo"] = json!("form");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, model.to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_whittle-servers"))
        .args(["sim", "--model", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("screens.home.elements[1].tap"), "{err}");
    assert!(err.contains("gotoo"), "{err}");
}
