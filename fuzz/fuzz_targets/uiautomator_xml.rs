//! `uiautomator dump` XML through the adb server's parser, then the element lookup and
//! tap point it feeds: never a panic (bounds are device data too).
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::plan::{By, Strategy};
use whittle_servers::adb::hierarchy::{centre, find, parse_bounds, parse_dump, parse_dump_tree};
use whittle_servers::adb::tap_target::find_tap_point;

fuzz_target!(|data: &[u8]| {
    let Ok(xml) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_bounds(xml);
    let Ok(elements) = parse_dump(xml) else {
        return;
    };
    let nodes = parse_dump_tree(xml).expect("parses as parse_dump did");
    for element in &elements {
        if element.visible {
            let (x, y) = centre(element);
            let [l, t, r, b] = element.bounds;
            assert!((l..=r).contains(&x) && (t..=b).contains(&y));
        }
        let strategies = [
            Strategy::new(By::Identifier, element.resource_id.clone()),
            Strategy::new(By::Text, element.text.clone()),
            Strategy::new(By::Label, element.content_desc.clone()),
        ];
        if let Some(found) = find(&elements, &strategies) {
            let _ = centre(found);
        }
        // A tap lands inside some element the dump names (the one found or an ancestor).
        if let Some((x, y)) = find_tap_point(&nodes, &strategies) {
            assert!(elements.iter().any(|e| {
                let [l, t, r, b] = e.bounds;
                (l..=r).contains(&x) && (t..=b).contains(&y)
            }));
        }
    }
});
