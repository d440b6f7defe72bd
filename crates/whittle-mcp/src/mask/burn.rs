use image::{Rgba, RgbaImage};

use super::{MaskRect, MaskStyle};

/// Pixelation block edge; large enough that text inside a block is unreadable.
const BLOCK: u32 = 16;
/// Blur strength applied after pixelating.
const BLUR_SIGMA: f32 = 12.0;

/// Burns masks into the pixels (clipped to the image). Overlapping masks are fine.
pub fn burn_in(img: &mut RgbaImage, masks: &[MaskRect], style: MaskStyle) {
    let (width, height) = img.dimensions();
    for rect in masks {
        let Some((x0, y0, x1, y1)) = rect.clip(width, height) else {
            continue;
        };
        match style {
            MaskStyle::Solid => fill(img, (x0, y0, x1, y1), Rgba([0, 0, 0, 255])),
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

fn fill(img: &mut RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32), color: Rgba<u8>) {
    for y in y0..y1 {
        for x in x0..x1 {
            img.put_pixel(x, y, color);
        }
    }
}

/// Replaces each block with its mean colour shifted by half the range, so that a block
/// whose pixels were all equal still changes: a mask must never leave a flat area as it was.
fn pixelate(img: &mut RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32)) {
    let mut by = y0;
    while by < y1 {
        let ey = (by + BLOCK).min(y1);
        let mut bx = x0;
        while bx < x1 {
            let ex = (bx + BLOCK).min(x1);
            let mut sum = [0u64; 4];
            for y in by..ey {
                for x in bx..ex {
                    for (s, c) in sum.iter_mut().zip(img.get_pixel(x, y).0) {
                        *s += u64::from(c);
                    }
                }
            }
            let n = u64::from((ex - bx) * (ey - by));
            let mean = sum.map(|s| (s / n) as u8);
            let shift = |c: u8| if c > 127 { c / 2 } else { c / 2 + 128 };
            let color = Rgba([shift(mean[0]), shift(mean[1]), shift(mean[2]), 255]);
            fill(img, (bx, by, ex, ey), color);
            bx = ex;
        }
        by = ey;
    }
}
