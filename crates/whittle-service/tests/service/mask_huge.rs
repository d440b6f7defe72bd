//! A huge screenshot (issue #8): a PNG whose header claims 50000x50000 pixels (10 GB
//! decoded) but carries a few bytes is omitted as undecodable, without allocating what
//! its header claims. Run in a process of its own (`alone`), so the peak memory measured
//! is its own.

use crate::alone;
use image::{Rgba, RgbaImage};
use whittle_contract::ui::{Hierarchy, UiElement};
use whittle_service::config::MaskingConfig;
use whittle_service::mask::{
    mask_screenshot, DecodeFailure, MaskOutcome, OmitReason, RawScreenshot, ScreenshotFormat,
    ShotMoment,
};

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
    out
}

/// A valid PNG signature and IHDR for `w`x`h` RGBA, then a tiny IDAT and IEND.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    png.extend(chunk(b"IEND", &[]));
    png
}

fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

fn screen() -> Hierarchy {
    Hierarchy {
        elements: vec![UiElement {
            resource_id: "app:id/root".into(),
            text: String::new(),
            content_desc: String::new(),
            class: "android.widget.FrameLayout".into(),
            bounds: [0, 0, 100, 100],
            password: false,
            focused: false,
            visible: true,
            package: None,
            depth: None,
            ..UiElement::default()
        }],
    }
}

#[test]
fn a_png_claiming_10_gb_is_omitted_without_allocating_it() {
    if !alone::in_own_process("mask_huge::a_png_claiming_10_gb_is_omitted_without_allocating_it") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shot.png");
    // The crafted header is what the decoder sees first: check it is a real PNG header.
    let small = RgbaImage::from_pixel(2, 2, Rgba([1, 2, 3, 255]));
    small.save(dir.path().join("probe.png")).unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("probe.png")).unwrap()[..33],
        png_claiming(2, 2)[..33]
    );

    let raw = RawScreenshot::new_in(dir.path()).unwrap();
    std::fs::write(raw.path(), png_claiming(50_000, 50_000)).unwrap();
    let before = peak_rss();
    let screen = screen();
    let capture = ShotMoment::still(Some(&screen), "app");
    let outcome = mask_screenshot(&raw, &capture, &[], &MaskingConfig::default(), &out)
        .expect("omitted, not an error");
    let after = peak_rss();
    // Refused from the header's size alone, before any pixel is decoded.
    assert_eq!(
        outcome,
        MaskOutcome::Omitted {
            reason: OmitReason::Undecodable(DecodeFailure::TooLarge {
                format: ScreenshotFormat::Png,
                width: 50_000,
                height: 50_000,
            })
        }
    );
    assert!(!out.exists(), "nothing archived");
    if let (Some(before), Some(after)) = (before, after) {
        let grew = after.saturating_sub(before);
        assert!(grew < 64 << 20, "peak RSS grew by {grew} bytes");
    }
}
