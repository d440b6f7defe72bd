//! Archived screenshots are masked copies of the raw ones: every pixel outside the
//! masks is untouched, the private fields are destroyed inside them. Driven over the
//! real simulator through `whittle_service::evidence::archive_screenshot`.

use crate::common;

use std::path::Path;

use common::*;
use image::RgbaImage;
use whittle_contract::ui::{By, Hierarchy, Strategy};
use whittle_service::client::Hub;
use whittle_service::config::{Config, MaskingConfig};
use whittle_service::evidence::archive_screenshot;
use whittle_service::mask::{auto_masks, MaskRect, MaskStyle};

const DEVICE: &str = "sim-1";

fn id(name: &str) -> Vec<Strategy> {
    vec![Strategy::new(By::Identifier, format!("{PKG}:id/{name}"))]
}

/// The login screen with an e-mail and a password typed in.
async fn login_screen_with_secrets(hub: &Hub) -> Hierarchy {
    hub.mobile().launch_app(DEVICE, PKG).await.unwrap();
    hub.ui()
        .tap_element(DEVICE, &id("btn_login"), 0)
        .await
        .unwrap();
    hub.ui()
        .input_text(DEVICE, &id("email"), SECRET_EMAIL)
        .await
        .unwrap();
    hub.ui()
        .input_text(DEVICE, &id("password"), SECRET_PASSWORD)
        .await
        .unwrap();
    hub.ui().get_hierarchy(DEVICE).await.unwrap()
}

fn bounds_of(h: &Hierarchy, name: &str) -> [i32; 4] {
    let rid = format!("{PKG}:id/{name}");
    h.elements
        .iter()
        .find(|e| e.resource_id == rid)
        .unwrap_or_else(|| panic!("{rid} not on screen"))
        .bounds
}

fn covered(masks: &[MaskRect], x: u32, y: u32) -> bool {
    masks
        .iter()
        .any(|m| x >= m.x && x < m.x + m.w && y >= m.y && y < m.y + m.h)
}

fn load(path: &Path) -> RgbaImage {
    image::open(path).unwrap().to_rgba8()
}

/// Inside `b`, the archived pixels vs the raw ones: (differing, total, archived colours).
fn compare_region(raw: &RgbaImage, archived: &RgbaImage, b: [i32; 4]) -> (usize, usize, usize) {
    let mut differing = 0;
    let mut total = 0;
    let mut colours = std::collections::BTreeSet::new();
    for y in b[1] as u32..b[3] as u32 {
        for x in b[0] as u32..b[2] as u32 {
            total += 1;
            if raw.get_pixel(x, y) != archived.get_pixel(x, y) {
                differing += 1;
            }
            colours.insert(archived.get_pixel(x, y).0);
        }
    }
    (differing, total, colours.len())
}

fn distinct_colours(img: &RgbaImage, b: [i32; 4]) -> usize {
    let mut colours = std::collections::BTreeSet::new();
    for y in b[1] as u32..b[3] as u32 {
        for x in b[0] as u32..b[2] as u32 {
            colours.insert(img.get_pixel(x, y).0);
        }
    }
    colours.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_screenshots_differ_from_raw_exactly_inside_the_masks() {
    let env = Env::fast(&[]);
    let config = Config::load(&env.config).unwrap();
    let hub = Hub::connect(&config).await.unwrap();
    let hierarchy = login_screen_with_secrets(&hub).await;
    let password = bounds_of(&hierarchy, "password");
    let email = bounds_of(&hierarchy, "email");

    let scratch = tempfile::tempdir().unwrap();
    let raw_path = scratch.path().join("raw.png");
    hub.mobile()
        .save_screenshot(DEVICE, raw_path.to_str().unwrap())
        .await
        .unwrap();
    let raw = load(&raw_path);
    // The raw password field shows something (one dot per character): not flat.
    assert!(distinct_colours(&raw, password) > 2);
    assert!(distinct_colours(&raw, email) > 2);

    let masks = auto_masks(&hierarchy, &[]);
    for field in [password, email] {
        let m = MaskRect::from_bounds(field, "").unwrap();
        assert!(
            masks
                .iter()
                .any(|r| (r.x, r.y, r.w, r.h) == (m.x, m.y, m.w, m.h)),
            "{field:?} not masked: {masks:?}"
        );
    }

    for (attempt, style) in [MaskStyle::Solid, MaskStyle::Pixelate, MaskStyle::Blur]
        .into_iter()
        .enumerate()
    {
        let evidence = scratch.path().join(format!("evidence-{attempt}"));
        let masking = MaskingConfig {
            id_patterns: Vec::new(),
            style,
            ..MaskingConfig::default()
        };
        let shot =
            archive_screenshot(&hub, DEVICE, PKG, &evidence, attempt as u32 + 1, &masking).await;
        assert!(!shot.redacted, "{style:?}: {shot:?}");
        let src = shot.src.expect("archived");
        assert_eq!(src, format!("screenshots/attempt-{:03}.png", attempt + 1));
        let archived = load(&evidence.join(&src));
        assert_eq!(archived.dimensions(), raw.dimensions());

        // The masks the archive records: the fields' own, and, since a field has focus
        // and no keyboard is in the dump, the band a soft keyboard would cover (starting
        // below the focused field) — nothing else.
        let record: serde_json::Value = serde_json::from_slice(
            &std::fs::read(evidence.join(src.replace(".png", ".masks.json"))).unwrap(),
        )
        .unwrap();
        let recorded: Vec<MaskRect> = serde_json::from_value(record["masks"].clone()).unwrap();
        let focused_bottom = hierarchy
            .elements
            .iter()
            .filter(|e| e.focused)
            .map(|e| e.bounds[3])
            .max()
            .unwrap_or(0);
        for m in &recorded {
            let own = masks
                .iter()
                .any(|a| (a.x, a.y, a.w, a.h) == (m.x, m.y, m.w, m.h));
            let keyboard = m.reason.contains("soft keyboard") && m.y as i32 >= focused_bottom;
            assert!(own || keyboard, "{style:?}: unexpected mask {m:?}");
        }
        // Outside every mask: byte-identical pixels.
        for (x, y, px) in archived.enumerate_pixels() {
            if !covered(&recorded, x, y) {
                assert_eq!(px, raw.get_pixel(x, y), "{style:?}: ({x},{y}) changed");
            }
        }
        // Inside each masked field: the content is gone.
        for field in [password, email] {
            let (differing, total, colours) = compare_region(&raw, &archived, field);
            assert!(differing > 0, "{style:?}: {field:?} unchanged");
            match style {
                MaskStyle::Solid => {
                    assert_eq!(colours, 1, "{style:?}: {field:?} not flat");
                }
                // Pixelation shifts every block's colour: no pixel keeps its value.
                MaskStyle::Pixelate => {
                    assert_eq!(differing, total, "{style:?}: {field:?}");
                }
                // Blur runs over a pixelation; its smoothing may land on an original
                // value here and there, but most pixels changed.
                MaskStyle::Blur => {
                    assert!(differing * 2 > total, "{style:?}: {differing}/{total}");
                }
            }
        }
    }
    hub.shutdown().await;
}
