//! The inspector on real hierarchies: public `uiautomator dump`s
//! (`tests/fixtures/uiautomator/`, sourced in `tests/fixtures/SOURCES.md`). No recorded
//! mobile-mcp `mobile_list_elements_on_screen` answer is among the fixtures, so the XML is
//! turned into the archive's JSON here (a full-size screenshot's pixels are the screen's)
//! and read back as `InspectNode`s with serde_json, as the app reads the archive.
use serde_json::json;
use whittle_core::inspect::{locator_of, nearest_nodes, nodes_at, InspectNode};
use whittle_core::plan::element_match::find_index;
use whittle_core::plan::{By, Strategy};

fn dump(name: &str) -> Vec<InspectNode> {
    let path = format!(
        "{}/../../tests/fixtures/uiautomator/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let xml = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{path}: {e}"));
    doc.descendants()
        .filter(|n| n.has_tag_name("node"))
        .map(|n| {
            let attr = |name: &str| n.attribute(name).unwrap_or_default();
            let depth = n
                .ancestors()
                .skip(1)
                .filter(|a| a.has_tag_name("node"))
                .count();
            let archived = json!({
                "resource_id": attr("resource-id"),
                "text": attr("text"),
                "content_desc": attr("content-desc"),
                "class": attr("class"),
                "bounds": bounds(attr("bounds")),
                "depth": depth,
            });
            serde_json::from_value(archived).expect("the archive's shape")
        })
        .collect()
}

/// `[l,t][r,b]` → `[l, t, r, b]`.
fn bounds(text: &str) -> [i32; 4] {
    let numbers: Vec<i32> = text
        .split(['[', ']', ','])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a bound"))
        .collect();
    numbers.try_into().expect("four bounds")
}

fn index_of(nodes: &[InspectNode], pick: impl Fn(&InspectNode) -> bool) -> usize {
    nodes
        .iter()
        .position(pick)
        .expect("the node is in the dump")
}

const WEATHER: &str = "window_dump_04_react_native_weather_drawing_order_hint_attrs.xml";
const LAUNCHER: &str = "window_dump_02_pixel_launcher_home_screen.xml";

#[test]
fn the_text_under_a_tap_in_the_search_bar_comes_first_then_its_bar_then_the_screen() {
    let nodes = dump(WEATHER);
    let london = index_of(&nodes, |n| n.text == "London");
    let search = index_of(&nodes, |n| n.content_desc == "Search");
    let at = nodes_at(&nodes, 200, 236);
    assert_eq!(at[..2], [london, search]);
    assert_eq!(at.last(), Some(&0), "the root is outermost");
    assert_eq!(at.len(), 16, "London's ancestors: {at:?}");
    for pair in at.windows(2) {
        assert!(nodes[pair[0]].depth > nodes[pair[1]].depth);
    }
    // The gear of "Go to settings": an unlabelled icon inside the labelled button.
    let gear = nodes_at(&nodes, 1000, 230);
    assert_eq!(nodes[gear[1]].content_desc, "Go to settings");
    assert!(nodes[gear[0]].content_desc.is_empty());
    assert_eq!(nodes[gear[0]].bounds, [975, 205, 1038, 268]);
}

#[test]
fn a_misspelled_test_id_is_nearest_to_the_real_one() {
    let nodes = dump(WEATHER);
    let summary = index_of(&nodes, |n| n.resource_id == "precipitation-summary");
    let near = nearest_nodes(
        &nodes,
        &Strategy::new(By::Identifier, "precipitaton-summary"),
        3,
    );
    assert_eq!(near.first().map(|n| n.index), Some(summary), "{near:?}");
    assert!(near[0].score > 0.9 && near[0].score < 1.0, "{near:?}");
    assert!(near.iter().skip(1).all(|n| n.score < 0.6), "{near:?}");
}

#[test]
fn a_text_with_a_trailing_space_is_an_exact_match_and_a_label_is_named_as_such() {
    let nodes = dump(WEATHER);
    let wind = index_of(&nodes, |n| n.text == "Wind: 16.1mph ENE ");
    let wanted = Strategy::new(By::Text, "Wind: 16.1mph ENE");
    let near = nearest_nodes(&nodes, &wanted, 3);
    assert_eq!((near[0].index, near[0].score), (wind, 1.0));
    assert_eq!(find_index(&nodes, &[wanted]), Some(wind));
    assert_eq!(
        locator_of(&nodes[wind]),
        Some(Strategy::new(By::Text, "Wind: 16.1mph ENE "))
    );

    let settings = index_of(&nodes, |n| n.content_desc == "Go to settings");
    let near = nearest_nodes(&nodes, &Strategy::new(By::Text, "Go to setings"), 3);
    assert_eq!(near[0].index, settings);
    assert_eq!(
        near[0].matched_on,
        By::Label,
        "only its description is close"
    );
    assert!(near[0].score < 1.0);
}

#[test]
fn a_launcher_id_is_found_by_its_view_name_and_not_across_packages() {
    let nodes = dump(LAUNCHER);
    let mic = index_of(&nodes, |n| {
        n.resource_id == "com.google.android.apps.nexuslauncher:id/mic_icon"
    });
    let near = nearest_nodes(&nodes, &Strategy::new(By::Identifier, "mic_icn"), 3);
    assert_eq!(near[0].index, mic, "{near:?}");
    assert!(near[0].score > 0.8 && near[0].score < 1.0);

    let clock = index_of(&nodes, |n| n.resource_id.ends_with(":id/clock"));
    let near = nearest_nodes(
        &nodes,
        &Strategy::new(By::Identifier, "android:id/clock"),
        3,
    );
    assert_eq!(near[0].index, clock);
    assert!(near[0].score < 1.0, "android's clock is not the launcher's");
    let near = nearest_nodes(&nodes, &Strategy::new(By::Identifier, "clock"), 3);
    assert_eq!((near[0].index, near[0].score), (clock, 1.0));

    assert_eq!(nodes_at(&nodes, 900, 1700).first(), Some(&mic));
    assert_eq!(
        locator_of(&nodes[mic]),
        Some(Strategy::new(
            By::Identifier,
            "com.google.android.apps.nexuslauncher:id/mic_icon"
        ))
    );
}

#[test]
fn every_node_with_a_locator_is_found_again_by_it_with_score_one() {
    for name in [WEATHER, LAUNCHER] {
        let nodes = dump(name);
        for (i, node) in nodes.iter().enumerate() {
            let Some(locator) = locator_of(node) else {
                continue;
            };
            let near = nearest_nodes(&nodes, &locator, nodes.len());
            assert!(
                near.iter().any(|n| n.index == i && n.score == 1.0),
                "{name} node {i}: {locator:?}"
            );
        }
    }
}
