//! The masking rules on real `uiautomator dump` output (tests/fixtures/SOURCES.md),
//! parsed by the adb server's own parser: a React Native app's screen is archived (its
//! masks scaled when the screenshot is downscaled as mobile-mcp does), the launcher shown
//! after a crash is not the app's screen, and its full-screen childless scrim would be
//! masked whole.

use image::{Rgb, RgbImage};
use whittle_contract::ui::Hierarchy;
use whittle_servers::adb::hierarchy::parse_dump;
use whittle_service::config::{MaskingConfig, PrivacyLevel};
use whittle_service::mask::{
    mask_screenshot, MaskOutcome, MaskRect, OmitReason, RawScreenshot, ShotMoment,
};

const WEATHER: &str = "uk.co.openweather";
const LAUNCHER: &str = "com.google.android.apps.nexuslauncher";

fn dump(file: &str) -> Hierarchy {
    let path = format!(
        "{}/../../tests/fixtures/uiautomator/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let xml = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Hierarchy {
        elements: parse_dump(&xml).unwrap(),
    }
}

fn weather() -> Hierarchy {
    dump("window_dump_04_react_native_weather_drawing_order_hint_attrs.xml")
}

fn launcher() -> Hierarchy {
    dump("window_dump_02_pixel_launcher_home_screen.xml")
}

fn mask(h: &Hierarchy, app: &str, (w, hh): (u32, u32), level: PrivacyLevel) -> MaskOutcome {
    let dir = tempfile::tempdir().unwrap();
    let raw = RawScreenshot::new_in(dir.path()).unwrap();
    RgbImage::from_fn(w, hh, |x, y| Rgb([(x % 251) as u8, (y % 241) as u8, 7]))
        .save_with_format(raw.path(), image::ImageFormat::Png)
        .unwrap();
    let cfg = MaskingConfig {
        level,
        ..MaskingConfig::default()
    };
    let out = dir.path().join("out.png");
    mask_screenshot(&raw, &ShotMoment::still(Some(h), app), &[], &cfg, &out).unwrap()
}

fn masks(outcome: MaskOutcome) -> Vec<MaskRect> {
    match outcome {
        MaskOutcome::Archived { masks, .. } => masks,
        MaskOutcome::Omitted { reason } => panic!("omitted: {reason}"),
    }
}

#[test]
fn a_react_native_screen_is_archived_and_strict_masks_its_text() {
    let h = weather();
    // Nothing on this weather screen looks private, and nothing is opaque.
    assert_eq!(
        masks(mask(&h, WEATHER, (1080, 2424), PrivacyLevel::Standard)),
        vec![]
    );
    let strict = masks(mask(&h, WEATHER, (1080, 2424), PrivacyLevel::Strict));
    let texts = h
        .elements
        .iter()
        .filter(|e| !e.text.trim().is_empty())
        .count();
    assert!(
        strict.len() >= texts && texts > 20,
        "{} masks, {texts} texts",
        strict.len()
    );
    let london = h.elements.iter().find(|e| e.text == "London").unwrap();
    let m = MaskRect::from_bounds(london.bounds, "").unwrap();
    assert!(strict
        .iter()
        .any(|s| (s.x, s.y, s.w, s.h) == (m.x, m.y, m.w, m.h)));
}

#[test]
fn the_same_screen_downscaled_like_mobile_mcp_gets_scaled_masks() {
    // mobile-mcp's default `maxSize` 1024: 1080x2424 becomes 456x1024.
    let h = weather();
    let strict = masks(mask(&h, WEATHER, (456, 1024), PrivacyLevel::Strict));
    let london = h
        .elements
        .iter()
        .find(|e| e.text == "London")
        .unwrap()
        .bounds;
    let s = 1024.0 / 2424.0;
    let covers = |m: &MaskRect| {
        f64::from(m.x) <= f64::from(london[0]) * s
            && f64::from(m.y) <= f64::from(london[1]) * s
            && f64::from(m.x + m.w) >= f64::from(london[2]) * s
            && f64::from(m.y + m.h) >= f64::from(london[3]) * s
            && m.x + m.w <= 456
    };
    assert!(
        strict.iter().any(covers),
        "no scaled mask covers London: {strict:?}"
    );
    // Another aspect ratio cannot be placed: omitted.
    match mask(&h, WEATHER, (600, 1024), PrivacyLevel::Strict) {
        MaskOutcome::Omitted {
            reason: OmitReason::ExtentMismatch { .. },
        } => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_launcher_after_a_crash_is_not_the_apps_screen() {
    // The Pixel's screen is 1080x1920; the launcher window stops above the nav bar.
    match mask(&launcher(), WEATHER, (1080, 1920), PrivacyLevel::Standard) {
        MaskOutcome::Omitted {
            reason: OmitReason::NotTheApp { shown, .. },
        } => assert_eq!(shown, LAUNCHER),
        other => panic!("{other:?}"),
    }
    // Were the launcher the app under test, its full-screen scrim (a childless View) is
    // a canvas the hierarchy cannot see into: the whole window is masked, and so is the
    // nav bar strip below it, which the hierarchy does not describe.
    let masks = masks(mask(
        &launcher(),
        LAUNCHER,
        (1080, 1920),
        PrivacyLevel::Standard,
    ));
    let whole = |m: &MaskRect| (m.x, m.y, m.w, m.h) == (0, 0, 1080, 1794);
    assert!(
        masks
            .iter()
            .any(|m| whole(m) && m.reason == "large view without children"),
        "{masks:?}"
    );
    assert!(
        masks
            .iter()
            .any(|m| m.reason == "outside the UI hierarchy" && m.y == 1794),
        "{masks:?}"
    );
}
