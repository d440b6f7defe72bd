//! `uiautomator dump` XML through the adb server's parser, then the element lookup and
//! tap point it feeds: never a panic (bounds are device data too).
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::contract::ui::{By, Strategy};
use whittle_servers::adb::hierarchy::{centre, find, parse_bounds, parse_dump};

fuzz_target!(|data: &[u8]| {
    let Ok(xml) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_bounds(xml);
    let Ok(elements) = parse_dump(xml) else {
        return;
    };
    for element in &elements {
        if element.visible {
            let (x, y) = centre(element);
            let [l, t, r, b] = element.bounds;
            assert!((l..=r).contains(&x) && (t..=b).contains(&y));
        }
        let strategies = [
            Strategy {
                by: By::Identifier,
                value: element.resource_id.clone(),
            },
            Strategy {
                by: By::Text,
                value: element.text.clone(),
            },
            Strategy {
                by: By::Label,
                value: element.content_desc.clone(),
            },
        ];
        if let Some(found) = find(&elements, &strategies) {
            let _ = centre(found);
        }
    }
});
