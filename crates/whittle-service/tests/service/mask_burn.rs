use image::{Rgba, RgbaImage};
use whittle_service::mask::{burn_in, MaskRect, MaskStyle};

/// Deterministic noise with no pure black pixel, so a solid mask must change every pixel.
fn noise(w: u32, h: u32) -> RgbaImage {
    let mut state: u32 = 0x1234_5678;
    RgbaImage::from_fn(w, h, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [a, b, c, _] = state.to_le_bytes();
        Rgba([a | 1, b | 1, c | 1, 255])
    })
}

fn rect(x: u32, y: u32, w: u32, h: u32) -> MaskRect {
    MaskRect {
        x,
        y,
        w,
        h,
        reason: "test".into(),
    }
}

fn inside(masks: &[MaskRect], x: u32, y: u32) -> bool {
    masks
        .iter()
        .any(|m| x >= m.x && x < m.x + m.w && y >= m.y && y < m.y + m.h)
}

fn check(style: MaskStyle, min_changed_share: f64) {
    let raw = noise(200, 160);
    let masks = [
        rect(10, 10, 50, 40),
        rect(100, 90, 70, 33),
        rect(150, 140, 100, 100),
    ];
    let mut img = raw.clone();
    burn_in(&mut img, &masks, style);
    for (x, y, p) in img.enumerate_pixels() {
        if !inside(&masks, x, y) {
            assert_eq!(
                p,
                raw.get_pixel(x, y),
                "{style:?}: pixel ({x},{y}) outside every mask changed"
            );
        }
    }
    for m in &masks {
        let (x1, y1) = ((m.x + m.w).min(200), (m.y + m.h).min(160));
        let total = f64::from((x1 - m.x) * (y1 - m.y));
        let changed = (m.y..y1)
            .flat_map(|y| (m.x..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y) != raw.get_pixel(x, y))
            .count() as f64;
        assert!(
            changed / total >= min_changed_share,
            "{style:?}: only {changed}/{total} changed in {m:?}"
        );
    }
}

#[test]
fn solid_changes_every_masked_pixel_and_nothing_else() {
    check(MaskStyle::Solid, 1.0);
    let mut img = noise(40, 40);
    burn_in(&mut img, &[rect(0, 0, 8, 8)], MaskStyle::Solid);
    assert_eq!(*img.get_pixel(3, 3), Rgba([0, 0, 0, 255]));
}

#[test]
fn pixelate_changes_masked_pixels_and_nothing_else() {
    check(MaskStyle::Pixelate, 0.99);
}

#[test]
fn blur_changes_masked_pixels_and_nothing_else() {
    check(MaskStyle::Blur, 0.99);
}

#[test]
fn pixelate_uses_blocks_of_at_least_16_px_and_changes_flat_regions() {
    let mut img = noise(64, 64);
    burn_in(&mut img, &[rect(0, 0, 32, 32)], MaskStyle::Pixelate);
    let first = *img.get_pixel(0, 0);
    assert!((0..16).all(|y| (0..16).all(|x| *img.get_pixel(x, y) == first)));

    let white = RgbaImage::from_pixel(32, 32, Rgba([255, 255, 255, 255]));
    let mut masked = white.clone();
    burn_in(&mut masked, &[rect(0, 0, 32, 32)], MaskStyle::Pixelate);
    assert!(masked.pixels().all(|p| *p != Rgba([255, 255, 255, 255])));
}

#[test]
fn masks_beyond_the_edge_are_clipped_not_a_panic() {
    let mut img = noise(20, 20);
    burn_in(
        &mut img,
        &[rect(15, 15, 100, 100), rect(50, 50, 5, 5)],
        MaskStyle::Blur,
    );
    assert_ne!(img.get_pixel(19, 19), noise(20, 20).get_pixel(19, 19));
}
