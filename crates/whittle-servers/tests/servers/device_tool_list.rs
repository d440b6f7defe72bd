//! The simulator and adb are served by one router, so they must offer the same tools:
//! the same names (exactly the contract's mobile, ui and log tools) with the same input
//! schemas, each with its backend's own description. Checked over real stdio MCP, as a
//! client sees them, so the two servers can never drift apart.
use crate::sim_support;
use crate::support;

use std::collections::BTreeMap;

use rmcp::model::Tool;
use serde_json::Value;
use sim_support::{test_model, Sim};
use support::FakeAdb;
use whittle_contract::{log, mobile, ui};

/// Tool name → input schema, as the server lists them.
fn schemas(tools: &[Tool]) -> BTreeMap<String, Value> {
    tools
        .iter()
        .map(|t| {
            let schema = Value::Object((*t.input_schema).clone());
            (t.name.to_string(), schema)
        })
        .collect()
}

#[tokio::test]
async fn sim_and_adb_serve_the_same_tools_with_the_same_input_schemas() {
    let sim = Sim::start(&test_model(), &[]).await;
    let sim_tools = sim.client.list_all_tools().await.unwrap();
    let fake = FakeAdb::new();
    let adb = fake.start(&[]).await;
    let adb_tools = adb.list_all_tools().await.unwrap();

    let contract: Vec<&str> = [mobile::TOOLS, ui::TOOLS, ui::OPTIONAL_TOOLS, log::TOOLS].concat();
    let (sim_schemas, adb_schemas) = (schemas(&sim_tools), schemas(&adb_tools));
    let names: Vec<&str> = sim_schemas.keys().map(String::as_str).collect();
    let mut expected = contract.clone();
    expected.sort_unstable();
    assert_eq!(names, expected, "the simulator serves exactly the contract");
    assert_eq!(sim_schemas, adb_schemas, "adb serves the simulator's tools");

    // Every schema names the arguments the contract's own types read.
    let required = |name: &str| sim_schemas[name]["required"].clone();
    assert_eq!(
        required(mobile::LAUNCH_APP),
        serde_json::json!(["device", "packageName"])
    );
    assert_eq!(
        required(ui::TAP_ELEMENT),
        serde_json::json!(["device", "strategies"])
    );

    // Descriptions are each backend's own words, and none is missing.
    let described = |tools: &[Tool]| -> BTreeMap<String, String> {
        tools
            .iter()
            .map(|t| {
                let text = t.description.as_deref().unwrap_or_default();
                assert!(!text.trim().is_empty(), "{} has no description", t.name);
                (t.name.to_string(), text.to_string())
            })
            .collect()
    };
    let (sim_text, adb_text) = (described(&sim_tools), described(&adb_tools));
    assert_ne!(
        sim_text[mobile::LIST_DEVICES],
        adb_text[mobile::LIST_DEVICES]
    );
    assert!(adb_text[ui::GET_HIERARCHY].contains("uiautomator"));

    let info = |info| serde_json::to_value(info).unwrap()["serverInfo"]["name"].clone();
    assert_eq!(info(sim.client.peer_info()), "whittle-sim");
    assert_eq!(info(adb.peer_info()), "whittle-adb");
}
