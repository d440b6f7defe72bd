use image::{ImageBuffer, Pixel, Rgb, Rgba};

use super::{MaskRect, MaskStyle};

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

/// Pixelation block edge; large enough that text inside a block is unreadable.
const BLOCK: u32 = 16;
/// Blur strength applied after pixelating.
const BLUR_SIGMA: f32 = 12.0;

/// Burns masks into the pixels (clipped to the image). Overlapping masks are fine.
pub fn burn_in<P: ScreenPixel>(img: &mut Screen<P>, masks: &[MaskRect], style: MaskStyle) {
    let (width, height) = img.dimensions();
    for rect in masks {
        let Some((x0, y0, x1, y1)) = rect.clip(width, height) else {
            continue;
        };
        match style {
            MaskStyle::Solid => fill(img, (x0, y0, x1, y1), P::opaque([0, 0, 0])),
            MaskStyle::Pixelate => pixelate(img, (x0, y0, x1, y1)),
            MaskStyle::Blur => {
                pixelate(img, (x0, y0, x1, y1));
                let region = image::imageops::crop_imm(&*img, x0, y0, x1 - x0, y1 - y0).to_image();
                let blurred = image::imageops::fast_blur(&region, BLUR_SIGMA);
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

/// Replaces each block with its mean colour shifted by half the range, so that a block
/// whose pixels were all equal still changes: a mask must never leave a flat area as it was.
fn pixelate<P: ScreenPixel>(img: &mut Screen<P>, (x0, y0, x1, y1): (u32, u32, u32, u32)) {
    let mut by = y0;
    while by < y1 {
        let ey = (by + BLOCK).min(y1);
        let mut bx = x0;
        while bx < x1 {
            let ex = (bx + BLOCK).min(x1);
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
            bx = ex;
        }
        by = ey;
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
