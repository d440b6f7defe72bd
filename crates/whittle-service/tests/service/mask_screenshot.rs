use crate::mask_support;

use std::path::Path;

use image::{Rgba, RgbaImage};
use whittle_contract::ui::{Hierarchy, UiElement};
use whittle_service::config::MaskingConfig;
use whittle_service::mask::{
    auto_masks, mask_screenshot, MaskOutcome, MaskRect, MaskStyle, RawScreenshot, ShotMoment,
};

/// The app under test; every node of `screen()` is its.
const APP: &str = "app";

/// An element of the app under test.
fn element(id: &str, class: &str, text: &str, bounds: [i32; 4]) -> UiElement {
    UiElement {
        package: Some(APP.into()),
        ..mask_support::element(id, class, text, bounds)
    }
}

fn screen() -> Hierarchy {
    let password = UiElement {
        password: true,
        ..element(
            "app:id/pw",
            "android.widget.EditText",
            "",
            [0, 100, 200, 140],
        )
    };
    let focused = UiElement {
        focused: true,
        ..element(
            "app:id/search",
            "android.widget.EditText",
            "red shoes",
            [0, 150, 200, 190],
        )
    };
    Hierarchy {
        elements: vec![
            element(
                "app:id/root",
                "android.widget.FrameLayout",
                "",
                [0, 0, 200, 300],
            ),
            element(
                "app:id/title",
                "android.widget.TextView",
                "Cart",
                [0, 0, 200, 40],
            ),
            element(
                "app:id/mail",
                "android.widget.TextView",
                "jane.doe@example.com",
                [0, 50, 200, 90],
            ),
            password,
            focused,
            element(
                "app:id/account_number",
                "android.widget.TextView",
                "A-7",
                [0, 200, 200, 240],
            ),
            element(
                "app:id/empty",
                "android.widget.TextView",
                "",
                [10, 10, 10, 10],
            ),
        ],
    }
}

fn cfg(style: MaskStyle) -> MaskingConfig {
    MaskingConfig {
        id_patterns: vec!["account_".into()],
        style,
        ..MaskingConfig::default()
    }
}

fn write_raw(dir: &Path, img: &RgbaImage) -> RawScreenshot {
    let raw = RawScreenshot::new_in(dir).unwrap();
    img.save_with_format(raw.path(), image::ImageFormat::Png)
        .unwrap();
    raw
}

fn gradient(w: u32, h: u32) -> RgbaImage {
    RgbaImage::from_fn(w, h, |x, y| {
        Rgba([(x % 250) as u8 + 3, (y % 250) as u8 + 3, 77, 255])
    })
}

#[test]
fn auto_masks_cover_each_kind_of_private_element_only() {
    let regex = cfg(MaskStyle::Solid).compile_id_patterns().unwrap();
    let masks = auto_masks(&screen(), &regex);
    let ys: Vec<(u32, &str)> = masks.iter().map(|m| (m.y, m.reason.as_str())).collect();
    assert_eq!(
        ys,
        vec![
            (50, "sensitive text"),
            (100, "password field"),
            (150, "focused input with text"),
            (200, "id matches a masking pattern"),
        ]
    );
    assert_eq!((masks[0].x, masks[0].w, masks[0].h), (0, 200, 40));
}

#[test]
fn archives_masked_png_with_auto_and_extra_masks() {
    let dir = tempfile::tempdir().unwrap();
    let raw_img = gradient(200, 300);
    let raw = write_raw(dir.path(), &raw_img);
    let out = dir.path().join("shot.png");
    let extra = [MaskRect {
        x: 0,
        y: 260,
        w: 50,
        h: 20,
        reason: "user".into(),
    }];
    let screen = screen();
    let outcome = mask_screenshot(
        &raw,
        &ShotMoment::still(Some(&screen), APP),
        &extra,
        &cfg(MaskStyle::Solid),
        &out,
    )
    .unwrap();
    let MaskOutcome::Archived { path, masks, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(path, out);
    // Four private elements, the user's rectangle, and the band a soft keyboard may cover
    // while the input has focus (none is in the dump).
    assert_eq!(masks.len(), 6, "{masks:?}");
    assert!(masks.iter().any(|m| m.reason.contains("soft keyboard")));
    let archived = image::open(&out).unwrap().to_rgba8();
    for m in &masks {
        for y in m.y..m.y + m.h {
            for x in m.x..m.x + m.w {
                assert_ne!(
                    archived.get_pixel(x, y),
                    raw_img.get_pixel(x, y),
                    "({x},{y}) {}",
                    m.reason
                );
            }
        }
    }
    // The title ("Cart") stays as it was.
    assert_eq!(archived.get_pixel(5, 5), raw_img.get_pixel(5, 5));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".whittle-masked-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn omits_without_hierarchy_on_size_mismatch_and_on_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shot.png");
    let raw = write_raw(dir.path(), &gradient(200, 300));
    let c = cfg(MaskStyle::Pixelate);
    let screen = screen();
    let still = ShotMoment::still(Some(&screen), APP);
    assert!(matches!(
        mask_screenshot(&raw, &ShotMoment::still(None, APP), &[], &c, &out).unwrap(),
        MaskOutcome::Omitted { .. }
    ));

    // 100x150 would be a uniform half-size downscale of the 200x300 hierarchy (its masks
    // are scaled); 100x200 is no uniform scale of it.
    let small = write_raw(dir.path(), &gradient(100, 200));
    match mask_screenshot(&small, &still, &[], &c, &out).unwrap() {
        MaskOutcome::Omitted { reason } => {
            assert!(reason.to_string().contains("100x200"), "{reason}")
        }
        other => panic!("{other:?}"),
    }

    let garbage = RawScreenshot::new_in(dir.path()).unwrap();
    std::fs::write(garbage.path(), b"not a png").unwrap();
    assert!(matches!(
        mask_screenshot(&garbage, &still, &[], &c, &out).unwrap(),
        MaskOutcome::Omitted { .. }
    ));
    assert!(!out.exists(), "nothing may be archived when omitted");
}

#[test]
fn raw_screenshot_is_private_and_deleted_on_drop() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let raw = write_raw(dir.path(), &gradient(10, 10));
    let path = raw.path().to_path_buf();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    drop(raw);
    assert!(!path.exists());
}
