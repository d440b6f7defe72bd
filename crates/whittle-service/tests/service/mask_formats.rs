//! A device server may save its screenshot as JPEG or WebP under the `.png` name it is
//! given: the masker recognises the format by the bytes, masks it like any other and
//! archives a PNG; a truncated or garbage file is omitted with its typed reason.

use crate::mask_support;

use std::io::Cursor;
use std::path::Path;

use image::{ImageFormat, Rgb, RgbImage};
use whittle_contract::ui::{Hierarchy, UiElement};
use whittle_service::config::MaskingConfig;
use whittle_service::mask::{
    mask_screenshot, DecodeFailure, MaskOutcome, MaskStyle, OmitReason, RawScreenshot,
    ScreenshotFormat, ShotMoment,
};

const APP: &str = "app";
const PAPER: [u8; 3] = [240, 240, 235];
const INK: [u8; 3] = [30, 30, 40];
/// Where the password field is; its dots are drawn there.
const PASSWORD: [i32; 4] = [20, 120, 220, 160];

fn element(id: &str, class: &str, bounds: [i32; 4]) -> UiElement {
    UiElement {
        package: Some(APP.into()),
        ..mask_support::element(id, class, "", bounds)
    }
}

fn hierarchy() -> Hierarchy {
    Hierarchy {
        elements: vec![
            element(
                "app:id/root",
                "android.widget.FrameLayout",
                [0, 0, 240, 320],
            ),
            UiElement {
                password: true,
                ..element("app:id/pw", "android.widget.EditText", PASSWORD)
            },
        ],
    }
}

/// A login screen: light paper, a dark title bar, the password's dots drawn in ink.
fn screen() -> RgbImage {
    let [x0, y0, x1, y1] = PASSWORD.map(|v| v as u32);
    RgbImage::from_fn(240, 320, |x, y| {
        let title = (20..40).contains(&y) && (20..200).contains(&x);
        let dot = (x0 + 10..x1 - 10).contains(&x) && (y0 + 15..y1 - 15).contains(&y) && x % 12 < 6;
        Rgb(if title || dot { INK } else { PAPER })
    })
}

/// The screen as a device server encoding it in `format` would write it.
fn encoded(format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    screen().write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// `bytes` written where the server is told to save its screenshot (a `.png` name).
fn raw_with(dir: &Path, bytes: &[u8]) -> RawScreenshot {
    let raw = RawScreenshot::new_in(dir).unwrap();
    assert_eq!(raw.path().extension().unwrap(), "png");
    std::fs::write(raw.path(), bytes).unwrap();
    raw
}

fn mask(raw: &RawScreenshot, out: &Path) -> MaskOutcome {
    let cfg = MaskingConfig {
        style: MaskStyle::Solid,
        ..MaskingConfig::default()
    };
    let h = hierarchy();
    mask_screenshot(raw, &ShotMoment::still(Some(&h), APP), &[], &cfg, out).unwrap()
}

fn near(a: &Rgb<u8>, b: [u8; 3]) -> bool {
    a.0.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 40)
}

#[test]
fn jpeg_and_webp_under_a_png_name_are_masked_and_archived_as_png() {
    let dir = tempfile::tempdir().unwrap();
    for format in [ImageFormat::Jpeg, ImageFormat::WebP] {
        let raw = raw_with(dir.path(), &encoded(format));
        let out = dir.path().join(format!("{format:?}.png"));
        let MaskOutcome::Archived { masks, .. } = mask(&raw, &out) else {
            panic!("{format:?} not archived")
        };
        assert_eq!(masks.len(), 1, "{format:?}: {masks:?}");
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(image::guess_format(&bytes).unwrap(), ImageFormat::Png);
        let archived = image::load_from_memory_with_format(&bytes, ImageFormat::Png)
            .unwrap()
            .to_rgb8();
        assert_eq!(archived.dimensions(), (240, 320));
        // Every pixel of the mask, the dots included, is covered.
        let m = &masks[0];
        for y in m.y..m.y + m.h {
            for x in m.x..m.x + m.w {
                assert_eq!(
                    *archived.get_pixel(x, y),
                    Rgb([0, 0, 0]),
                    "{format:?} ({x},{y})"
                );
            }
        }
        assert!(m.x <= 20 && m.y <= 120 && m.x + m.w >= 220 && m.y + m.h >= 160);
        // The rest is the screen the server sent (JPEG moves colours a little).
        assert!(near(archived.get_pixel(50, 30), INK), "{format:?} title");
        assert!(
            near(archived.get_pixel(120, 250), PAPER),
            "{format:?} paper"
        );
    }
}

#[test]
fn truncated_or_garbage_screenshots_are_omitted_with_their_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shot.png");
    let jpeg = encoded(ImageFormat::Jpeg);
    let png = encoded(ImageFormat::Png);
    let cases = [
        (
            jpeg[..jpeg.len() * 2 / 3].to_vec(),
            DecodeFailure::Truncated {
                format: ScreenshotFormat::Jpeg,
            },
        ),
        (
            b"{\"error\":\"device offline\"}".to_vec(),
            DecodeFailure::UnknownFormat,
        ),
        (Vec::new(), DecodeFailure::Empty),
    ];
    for (bytes, expected) in cases {
        let raw = raw_with(dir.path(), &bytes);
        assert_eq!(
            mask(&raw, &out),
            MaskOutcome::Omitted {
                reason: OmitReason::Undecodable(expected)
            }
        );
    }
    let raw = raw_with(dir.path(), &png[..png.len() / 2]);
    match mask(&raw, &out) {
        MaskOutcome::Omitted {
            reason: OmitReason::Undecodable(DecodeFailure::Damaged { format, .. }),
        } => assert_eq!(format, ScreenshotFormat::Png),
        other => panic!("{other:?}"),
    }
    assert!(!out.exists(), "nothing is archived when omitted");
}
