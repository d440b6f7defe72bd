//! The outline drawn around the element an action is about to act on, in the frame
//! taken right before it (`evidence/before_frame.rs`): burned in with the masks, in the
//! same pass, so a kept frame is decoded and encoded once.

use image::ImageBuffer;

use super::ScreenPixel;

/// Magenta: no app's palette is likely to hide it (the window's live outline is the same
/// colour, `--target-outline`).
pub(crate) const OUTLINE_RGB: [u8; 3] = [255, 0, 200];
const OUTLINE_PX: u32 = 4;

/// A frame of `OUTLINE_PX` around `bounds` (`[left, top, right, bottom]`), clipped to the
/// image; drawn outside the element where there is room, so its own pixels (and any
/// mask on them) stay as they are.
pub(crate) fn draw_outline<P: ScreenPixel>(img: &mut ImageBuffer<P, Vec<u8>>, bounds: [i32; 4]) {
    let colour = P::opaque(OUTLINE_RGB);
    let (w, h) = (img.width() as i64, img.height() as i64);
    let [left, top, right, bottom] = bounds.map(i64::from);
    let px = i64::from(OUTLINE_PX);
    let (x0, y0, x1, y1) = (left - px, top - px, right + px, bottom + px);
    for y in y0.max(0)..y1.min(h) {
        for x in x0.max(0)..x1.min(w) {
            let inside = x >= left && x < right && y >= top && y < bottom;
            if !inside {
                img.put_pixel(x as u32, y as u32, colour);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;

    const OUTLINE_RGBA: Rgba<u8> = Rgba([255, 0, 200, 255]);

    #[test]
    fn the_outline_surrounds_the_element_and_leaves_it_as_it_was() {
        let mut img = RgbaImage::from_pixel(100, 100, Rgba([0, 0, 0, 255]));
        draw_outline(&mut img, [20, 30, 60, 50]);
        assert_eq!(
            *img.get_pixel(40, 40),
            Rgba([0, 0, 0, 255]),
            "inside untouched"
        );
        assert_eq!(*img.get_pixel(17, 40), OUTLINE_RGBA, "left edge");
        assert_eq!(*img.get_pixel(62, 52), OUTLINE_RGBA, "bottom-right corner");
        assert_eq!(
            *img.get_pixel(10, 40),
            Rgba([0, 0, 0, 255]),
            "beyond the outline"
        );
        // An element at the edge of the screen: the outline is clipped, not a panic.
        draw_outline(&mut img, [-10, 90, 120, 130]);
        assert_eq!(*img.get_pixel(0, 88), OUTLINE_RGBA);
    }
}
