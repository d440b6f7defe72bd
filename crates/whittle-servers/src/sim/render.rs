//! Screenshots: the current screen drawn as boxes with their text (embedded 8x8 bitmap
//! font, scaled), so that masking downstream has real pixels to hide. Password fields
//! show one dot per typed character, like Android does.
use font8x8::{UnicodeFonts, BASIC_FONTS};
use image::{Rgb, RgbImage};

use super::view::ElementView;

const SCALE: u32 = 3;
const GLYPH: u32 = 8 * SCALE;
const PADDING: i32 = 16;
const STATUS_BAR: u32 = 72;

const BACKGROUND: Rgb<u8> = Rgb([245, 245, 245]);
const STATUS: Rgb<u8> = Rgb([33, 33, 33]);
const INK: Rgb<u8> = Rgb([20, 20, 20]);
const PAPER: Rgb<u8> = Rgb([255, 255, 255]);
const BORDER: Rgb<u8> = Rgb([120, 120, 120]);
const BUTTON: Rgb<u8> = Rgb([25, 118, 210]);
const LAUNCHER: Rgb<u8> = Rgb([0, 77, 64]);
const ICON: Rgb<u8> = Rgb([224, 242, 241]);

/// The app's screen with its visible elements.
pub fn app_screen(size: [u32; 2], elements: &[ElementView<'_>]) -> RgbImage {
    let mut img = RgbImage::from_pixel(size[0], size[1], BACKGROUND);
    fill(&mut img, [0, 0, size[0] as i32, STATUS_BAR as i32], STATUS);
    for el in elements.iter().filter(|e| e.model.visible) {
        let bounds = el.model.bounds;
        let button = el.model.class.ends_with("Button");
        let (fill_color, ink) = if button {
            (BUTTON, PAPER)
        } else {
            (PAPER, INK)
        };
        fill(&mut img, bounds, BORDER);
        fill(&mut img, inset(bounds, 3), fill_color);
        let text_top = (bounds[1] + bounds[3]) / 2 - GLYPH as i32 / 2;
        let left = bounds[0] + PADDING;
        if el.model.password {
            dots(
                &mut img,
                left,
                text_top,
                el.text.chars().count(),
                bounds,
                ink,
            );
        } else {
            text(&mut img, left, text_top, &el.text, bounds, ink);
        }
    }
    img
}

/// What the phone shows when the app is not in the foreground (closed or crashed).
pub fn launcher(size: [u32; 2]) -> RgbImage {
    let (w, h) = (size[0] as i32, size[1] as i32);
    let mut img = RgbImage::from_pixel(size[0], size[1], LAUNCHER);
    fill(&mut img, [0, 0, w, STATUS_BAR as i32], STATUS);
    let cell = w / 4;
    let icon = (cell * 3 / 5).max(1);
    let labels = ["Phone", "Shop", "Settings", "Camera"];
    let top = h - h / 5;
    for (i, label) in labels.iter().enumerate() {
        let left = cell * i as i32 + (cell - icon) / 2;
        fill(&mut img, [left, top, left + icon, top + icon], ICON);
        let area = [cell * i as i32, top + icon, cell * (i as i32 + 1), h];
        let width = label.len() as i32 * GLYPH as i32;
        text(
            &mut img,
            cell * i as i32 + (cell - width) / 2,
            top + icon + 12,
            label,
            area,
            PAPER,
        );
    }
    img
}

fn inset(b: [i32; 4], by: i32) -> [i32; 4] {
    [b[0] + by, b[1] + by, b[2] - by, b[3] - by]
}

/// Fills a rectangle, clipped to the image.
fn fill(img: &mut RgbImage, b: [i32; 4], color: Rgb<u8>) {
    let (w, h) = (img.width() as i32, img.height() as i32);
    for y in b[1].max(0)..b[3].min(h) {
        for x in b[0].max(0)..b[2].min(w) {
            img.put_pixel(x as u32, y as u32, color);
        }
    }
}

/// Draws text from (x, y), clipped to `clip` and the image; unknown glyphs show as '?'.
/// Every kind of space (no-break, figure, narrow…) draws as a space, as on a phone.
fn text(img: &mut RgbImage, x: i32, y: i32, s: &str, clip: [i32; 4], color: Rgb<u8>) {
    for (i, ch) in s.chars().enumerate() {
        let ch = if ch.is_whitespace() { ' ' } else { ch };
        let glyph = BASIC_FONTS
            .get(ch)
            .or_else(|| BASIC_FONTS.get('?'))
            .unwrap_or([0; 8]);
        let gx = x + (i as i32) * GLYPH as i32;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) == 0 {
                    continue;
                }
                let px = gx + col * SCALE as i32;
                let py = y + row as i32 * SCALE as i32;
                let cell = [px, py, px + SCALE as i32, py + SCALE as i32];
                fill(img, intersect(cell, clip), color);
            }
        }
    }
}

fn dots(img: &mut RgbImage, x: i32, y: i32, n: usize, clip: [i32; 4], color: Rgb<u8>) {
    let r = GLYPH as i32 / 3;
    for i in 0..n as i32 {
        let (cx, cy) = (
            x + i * GLYPH as i32 + GLYPH as i32 / 2,
            y + GLYPH as i32 / 2,
        );
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    let p = [cx + dx, cy + dy, cx + dx + 1, cy + dy + 1];
                    fill(img, intersect(p, clip), color);
                }
            }
        }
    }
}

fn intersect(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ]
}
