//! The adb backend's dump parser, element matching and tap points on real `uiautomator
//! dump` output (`tests/fixtures/uiautomator`, sources in `tests/fixtures/SOURCES.md`).
use whittle_contract::ui::{By, Strategy};
use whittle_core::plan::element_match::find_index;
use whittle_servers::adb::hierarchy::{find, parse_dump, parse_dump_tree, DumpNode};
use whittle_servers::adb::tap_target::find_tap_point;

const LAUNCHER: &str = "window_dump_02_pixel_launcher_home_screen.xml";
const LOCKSCREEN: &str = "window_dump_03_systemui_lockscreen_keyguard_ptBR.xml";
const WEATHER: &str = "window_dump_04_react_native_weather_drawing_order_hint_attrs.xml";

fn dump(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/uiautomator/"
    );
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

fn tree(name: &str) -> Vec<DumpNode> {
    parse_dump_tree(&dump(name)).unwrap()
}

fn s(by: By, value: &str) -> Vec<Strategy> {
    vec![Strategy::new(by, value)]
}

/// The element the strategy finds: its resource id, text and bounds.
fn found(nodes: &[DumpNode], by: By, value: &str) -> Option<(String, String, [i32; 4])> {
    let e = &nodes[find_index(nodes, &s(by, value))?].element;
    Some((e.resource_id.clone(), e.text.clone(), e.bounds))
}

#[test]
fn launcher_dump_counts_bounds_and_labels() {
    let els = parse_dump(&dump(LAUNCHER)).unwrap();
    assert_eq!(els.len(), 25);
    assert_eq!(els[0].bounds, [0, 0, 1080, 1794]);
    assert_eq!(els[0].class, "android.widget.FrameLayout");
    assert!(els.iter().all(|e| !e.password && e.visible));
    let chrome = find(&els, &s(By::Label, "Chrome")).expect("Chrome icon by label");
    assert!(chrome.text.is_empty() || chrome.text == "Chrome");
}

#[test]
fn lockscreen_dump_keeps_non_ascii_text_and_hides_zero_size_nodes() {
    let els = parse_dump(&dump(LOCKSCREEN)).unwrap();
    assert_eq!(els.len(), 34);
    let hidden: Vec<_> = els.iter().filter(|e| !e.visible).collect();
    assert_eq!(hidden.len(), 3);
    assert!(hidden.iter().all(|e| e.bounds == [0, 0, 0, 0]));
    assert!(hidden.iter().any(|e| e.resource_id
        == "com.android.systemui:id/keyguard_indication_text"
        && e.text == "65% • Carga lenta • Conclusão em 3 h"));
    assert!(els
        .iter()
        .any(|e| e.content_desc == "Notificação do YouTube: Rocketseat" && e.visible));
}

#[test]
fn react_native_dump_with_extra_attributes() {
    let els = parse_dump(&dump(WEATHER)).unwrap();
    assert_eq!(els.len(), 110);
    assert_eq!(els[0].bounds, [0, 0, 1080, 2424]);
    let summary =
        find(&els, &s(By::Identifier, "precipitation-summary")).expect("testID-style resource id");
    assert!(summary.bounds[2] > summary.bounds[0]);
    assert!(els.iter().any(|e| e.text == "Feels like 43°F"));
}

#[test]
fn the_tree_of_a_real_dump_nests_as_the_xml_does() {
    let nodes = tree(WEATHER);
    assert_eq!(nodes[0].parent, None);
    assert!(nodes.iter().skip(1).all(|n| n.parent.is_some()));
    let london = nodes
        .iter()
        .position(|n| n.element.text == "London")
        .unwrap();
    let search = nodes[london].parent.unwrap();
    assert_eq!(nodes[search].element.content_desc, "Search");
    assert!(nodes[search].clickable && !nodes[london].clickable);
    assert_eq!(nodes.iter().filter(|n| n.clickable).count(), 9);
}

/// Failure 3 of issue 15: a dump's text carries a trailing space the tester never sees.
#[test]
fn text_with_a_trailing_space_is_found_without_it() {
    let nodes = tree(WEATHER);
    let wind = Some((
        String::new(),
        "Wind: 16.1mph ENE ".to_string(),
        [53, 931, 390, 982],
    ));
    assert_eq!(found(&nodes, By::Text, "Wind: 16.1mph ENE"), wind);
    assert_eq!(found(&nodes, By::Text, "Wind: 16.1mph ENE "), wind);
    assert_eq!(found(&nodes, By::Text, "  Wind:  16.1mph\tENE"), wind);
    assert_eq!(
        found(&nodes, By::Text, "wind: 16.1mph ene"),
        None,
        "case counts"
    );
    // Nothing clickable holds it: the tap lands on its own centre.
    assert_eq!(
        find_tap_point(&nodes, &s(By::Text, "Wind: 16.1mph ENE")),
        Some((221, 956))
    );
}

/// No stored public dump has a no-break space, so this one is the weather dump with the
/// spaces of the wind text turned into U+00A0 / U+202F, raw and as character references.
#[test]
fn no_break_spaces_compare_as_spaces() {
    for (raw, spaced) in [
        ("Wind: 16.1mph ENE ", "Wind:\u{a0}16.1\u{202f}mph ENE\u{a0}"),
        (
            "Wind: 16.1mph ENE ",
            "Wind:&#160;16.1&#x202F;mph&#x2007;ENE&#160;",
        ),
    ] {
        let xml = dump(WEATHER).replacen(raw, spaced, 1);
        assert_ne!(xml, dump(WEATHER));
        let nodes = parse_dump_tree(&xml).unwrap();
        let hit = found(&nodes, By::Text, "Wind: 16.1 mph ENE").expect(spaced);
        assert_eq!(hit.2, [53, 931, 390, 982]);
        assert!(hit.1.contains('\u{a0}'), "the element keeps its own text");
        assert_eq!(found(&nodes, By::Text, "Wind: 16.1mph ENE"), None);
    }
}

#[test]
fn identifiers_match_with_or_without_the_package() {
    let weather = tree(WEATHER);
    // React Native testIDs carry no package; a plan that adds one still finds them.
    let daily = found(&weather, By::Identifier, "daily").unwrap();
    assert_eq!(daily.2, [21, 1396, 1059, 2340]);
    for wanted in ["uk.co.openweather:id/daily", "id/daily", " daily "] {
        assert_eq!(found(&weather, By::Identifier, wanted), Some(daily.clone()));
    }
    assert_eq!(found(&weather, By::Identifier, "dail"), None);

    // Package-prefixed ids are found by their bare name, but never across packages.
    let launcher = tree(LAUNCHER);
    let clock = found(&launcher, By::Identifier, "clock").unwrap();
    assert_eq!(clock.0, "com.google.android.apps.nexuslauncher:id/clock");
    assert_eq!(found(&launcher, By::Identifier, "id/clock"), Some(clock));
    assert_eq!(found(&launcher, By::Identifier, "android:id/clock"), None);
    assert_eq!(
        found(&launcher, By::Identifier, "content").unwrap().0,
        "android:id/content"
    );
}

#[test]
fn a_text_that_is_not_clickable_is_tapped_through_its_clickable_ancestor() {
    let weather = tree(WEATHER);
    let tap = |nodes: &[DumpNode], by, value: &str| find_tap_point(nodes, &s(by, value));
    // "London" [116,201][295,272] sits in the clickable search bar [21,201][954,272].
    assert_eq!(tap(&weather, By::Text, "London"), Some((487, 236)));
    // A day's date inside its clickable row [21,1396][1059,1545].
    assert_eq!(tap(&weather, By::Text, "Tue Apr 01"), Some((540, 1470)));
    // The row itself, by its label, is clickable: its own centre.
    assert_eq!(
        tap(&weather, By::Label, "Navigate to a specific day: 01 Apr"),
        Some((540, 1470))
    );
    let launcher = tree(LAUNCHER);
    // The clock [77,123][1045,180] inside the clickable card [77,84][1045,337].
    assert_eq!(tap(&launcher, By::Text, "Fri, Apr 21"), Some((561, 210)));
    assert_eq!(tap(&launcher, By::Identifier, "clock"), Some((561, 210)));
    // A clickable icon is its own target.
    assert_eq!(tap(&launcher, By::Text, "Messages"), Some((338, 1465)));
}

#[test]
fn zero_size_nodes_are_never_targets_even_when_they_match() {
    let nodes = tree(LOCKSCREEN);
    let text = "65% • Carga lenta • Conclusão em 3 h";
    assert!(nodes.iter().any(|n| n.element.text == text));
    assert_eq!(found(&nodes, By::Text, text), None);
    assert_eq!(
        found(&nodes, By::Identifier, "keyguard_indication_text"),
        None
    );
    assert_eq!(find_tap_point(&nodes, &s(By::Text, text)), None);
    // Visible ones on the same screen are found, non-ASCII text and all.
    assert!(found(&nodes, By::Label, "Notificação do YouTube: Rocketseat").is_some());
}

#[test]
fn among_several_visible_matches_the_first_in_document_order_wins() {
    let nodes = tree(WEATHER);
    let all: Vec<[i32; 4]> = nodes
        .iter()
        .filter(|n| n.element.text == "49 °F")
        .map(|n| n.element.bounds)
        .collect();
    assert_eq!(all.len(), 4, "four hourly cells say 49 °F");
    assert_eq!(found(&nodes, By::Text, "49 °F").unwrap().2, all[0]);
    assert_eq!(found(&nodes, By::Text, "49\u{a0}°F").unwrap().2, all[0]);
}
