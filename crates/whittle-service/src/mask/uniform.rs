use image::{ImageBuffer, Pixel};

/// Is every pixel of the region `(x0, y0, x1, y1)` (clipped to the image) exactly the
/// same? Such a region shows nothing, private or not. Exact equality on purpose: faint
/// text on a near-uniform background is still text.
pub(crate) fn is_uniform<P: Pixel<Subpixel = u8> + PartialEq>(
    img: &ImageBuffer<P, Vec<u8>>,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
) -> bool {
    let (w, h) = img.dimensions();
    let (x1, y1) = (x1.min(w), y1.min(h));
    if x0 >= x1 || y0 >= y1 {
        return true;
    }
    let first = *img.get_pixel(x0, y0);
    (y0..y1).all(|y| (x0..x1).all(|x| *img.get_pixel(x, y) == first))
}

#[cfg(test)]
mod tests {
    use image::{Rgb, RgbImage};

    use super::*;

    #[test]
    fn one_different_pixel_makes_a_region_non_uniform() {
        let mut img = RgbImage::from_pixel(20, 10, Rgb([9, 9, 9]));
        assert!(is_uniform(&img, (0, 0, 20, 10)));
        img.put_pixel(19, 9, Rgb([9, 9, 10]));
        assert!(!is_uniform(&img, (0, 0, 20, 10)));
        assert!(is_uniform(&img, (0, 0, 19, 10)));
        assert!(
            is_uniform(&img, (5, 5, 5, 9)),
            "an empty region shows nothing"
        );
    }
}
