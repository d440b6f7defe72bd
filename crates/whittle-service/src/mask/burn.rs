use image::{ImageBuffer, Pixel, Rgb, Rgba};

use super::{MaskRect, MaskStyle, TextLines};

/// A pixel type masks can be burned into: 8-bit RGB or RGBA, the formats device
/// screenshots come in. Masking in the decoded format avoids converting a whole
/// 1080×2400 screenshot to RGBA (most of the masking time) just to paint a few boxes.
pub trait ScreenPixel: Pixel<Subpixel = u8> + 'static {
    /// This colour, fully opaque: a mask must never be see-through.
    fn opaque(rgb: [u8; 3]) -> Self;
}

impl ScreenPixel for Rgb<u8> {
    fn opaque(rgb: [u8; 3]) -> Self {
        Rgb(rgb)
    }
}

impl ScreenPixel for Rgba<u8> {
    fn opaque([r, g, b]: [u8; 3]) -> Self {
        Rgba([r, g, b, 255])
    }
}

type Screen<P> = ImageBuffer<P, Vec<u8>>;

/// The smallest pixelation block, whatever the mask's size.
const MIN_BLOCK: u32 = 16;

/// The edge of the square blocks Pixelate and Blur use inside the region `(x0, y0, x1,
/// y1)`: at least a third of the region's shorter side (so at most three blocks span
/// it), at least the tallest text line the hierarchy reports under it, and never below
/// [`MIN_BLOCK`]. Fixed 16-px blocks were smaller than the letters on a 1080-px screen
/// and left words readable; a block at least as tall as the line holds whole letters,
/// so what is left is a mean colour, not a shape.
pub fn block_edge(region: (u32, u32, u32, u32), text: &TextLines) -> u32 {
    let (x0, y0, x1, y1) = region;
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let third = w.min(h).div_ceil(3);
    third.max(text.tallest_over(region)).max(MIN_BLOCK)
}

/// Burns masks into the pixels (clipped to the image). Overlapping masks are fine.
/// Blocks are sized from each mask alone; [`burn_in_over_text`] also sizes them from
/// the text the hierarchy reports.
pub fn burn_in<P: ScreenPixel>(img: &mut Screen<P>, masks: &[MaskRect], style: MaskStyle) {
    burn_in_over_text(img, masks, style, &TextLines::default());
}

/// [`burn_in`], with Pixelate and Blur blocks never smaller than the text in `text`.
pub fn burn_in_over_text<P: ScreenPixel>(
    img: &mut Screen<P>,
    masks: &[MaskRect],
    style: MaskStyle,
    text: &TextLines,
) {
    let (width, height) = img.dimensions();
    for rect in masks {
        let Some(region) = rect.clip(width, height) else {
            continue;
        };
        let (x0, y0, x1, y1) = region;
        let block = block_edge(region, text);
        let origin_y = block_rows_origin(region, text);
        match style {
            MaskStyle::Solid => fill(img, region, P::opaque([0, 0, 0])),
            MaskStyle::Pixelate => pixelate(img, region, block, origin_y),
            MaskStyle::Blur => {
                // Pixelated first, so the blur has nothing fine left to smear; a blur
                // alone can be partly undone.
                pixelate(img, region, block, origin_y);
                let crop = image::imageops::crop_imm(&*img, x0, y0, x1 - x0, y1 - y0).to_image();
                let blurred = image::imageops::fast_blur(&crop, block as f32);
                image::imageops::replace(img, &blurred, i64::from(x0), i64::from(y0));
            }
        }
    }
}

fn fill<P: ScreenPixel>(img: &mut Screen<P>, (x0, y0, x1, y1): (u32, u32, u32, u32), color: P) {
    for y in y0..y1 {
        for x in x0..x1 {
            img.put_pixel(x, y, color);
        }
    }
}

/// Where block rows start inside `region`: on the top of the tallest text line under
/// it, so that line sits inside one row of blocks instead of being cut in two (a cut
/// keeps a little of the letters' top-versus-bottom shape). Without text, the region's
/// own top.
fn block_rows_origin(region: (u32, u32, u32, u32), text: &TextLines) -> u32 {
    text.tallest_box_over(region)
        .map_or(region.1, |[_, top, _, _]| top.clamp(region.1, region.3))
}

/// The edges of the blocks along one axis: from `start` to `end` on a grid of `block`
/// through `origin` (partial blocks at both ends).
fn cuts(start: u32, end: u32, origin: u32, block: u32) -> Vec<u32> {
    let mut edges = vec![start];
    // The first grid line after `start`.
    let behind = (origin - start) % block;
    let mut next = start + if behind == 0 { block } else { behind };
    while next < end {
        edges.push(next);
        next += block;
    }
    edges.push(end);
    edges
}

/// Replaces each block with its mean colour shifted by half the range, so that a block
/// whose pixels were all equal still changes: a mask must never leave a flat area as it was.
fn pixelate<P: ScreenPixel>(
    img: &mut Screen<P>,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    block: u32,
    origin_y: u32,
) {
    let rows = cuts(y0, y1, origin_y, block);
    let columns = cuts(x0, x1, x0, block);
    for ys in rows.windows(2) {
        let (by, ey) = (ys[0], ys[1]);
        for xs in columns.windows(2) {
            let (bx, ex) = (xs[0], xs[1]);
            let mut sum = [0u64; 3];
            for y in by..ey {
                for x in bx..ex {
                    for (s, c) in sum.iter_mut().zip(img.get_pixel(x, y).to_rgb().0) {
                        *s += u64::from(c);
                    }
                }
            }
            let n = u64::from((ex - bx) * (ey - by));
            let mean = sum.map(|s| (s / n) as u8);
            let shift = |c: u8| if c > 127 { c / 2 } else { c / 2 + 128 };
            let color = P::opaque([shift(mean[0]), shift(mean[1]), shift(mean[2])]);
            fill(img, (bx, by, ex, ey), color);
        }
    }
}

#[cfg(test)]
mod tests {
    use image::{Rgb, RgbImage, RgbaImage};

    use super::*;

    fn rect(x: u32, y: u32, w: u32, h: u32) -> MaskRect {
        MaskRect {
            x,
            y,
            w,
            h,
            reason: "test".into(),
        }
    }

    #[test]
    fn block_rows_run_through_the_top_of_the_text_line() {
        assert_eq!(cuts(100, 400, 100, 84), [100, 184, 268, 352, 400]);
        // The text starts at 160: a row starts there, a partial row comes before it.
        assert_eq!(cuts(100, 400, 160, 84), [100, 160, 244, 328, 400]);
        assert_eq!(cuts(0, 10, 0, 84), [0, 10]);
        let text = TextLines::new(vec![[0, 160, 500, 244]]);
        assert_eq!(block_rows_origin((0, 100, 500, 400), &text), 160);
        assert_eq!(block_rows_origin((0, 200, 500, 400), &text), 200);
        assert_eq!(
            block_rows_origin((0, 100, 500, 400), &TextLines::default()),
            100
        );
    }

    /// Masking a screenshot in RGB (as the device sent it) must give exactly the pixels
    /// masking its RGBA conversion gives, for every style.
    #[test]
    fn rgb_and_rgba_screenshots_are_masked_alike() {
        let rgb = RgbImage::from_fn(96, 80, |x, y| {
            Rgb([(x * 7 + y) as u8, (y * 5) as u8 | 1, (x ^ y) as u8])
        });
        let masks = [rect(4, 4, 40, 30), rect(50, 20, 60, 70)];
        for style in [MaskStyle::Solid, MaskStyle::Pixelate, MaskStyle::Blur] {
            let mut as_rgb = rgb.clone();
            burn_in(&mut as_rgb, &masks, style);
            let mut as_rgba: RgbaImage = image::DynamicImage::ImageRgb8(rgb.clone()).to_rgba8();
            burn_in(&mut as_rgba, &masks, style);
            let widened = image::DynamicImage::ImageRgb8(as_rgb).to_rgba8();
            assert_eq!(widened, as_rgba, "{style:?}");
            assert_ne!(
                widened,
                image::DynamicImage::ImageRgb8(rgb.clone()).to_rgba8()
            );
        }
    }
}
