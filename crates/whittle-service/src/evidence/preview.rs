//! What the viewer shows over a screenshot while the reviewer edits masks: the masked
//! regions rendered by the very code that will burn them ([`apply_masks`]), so the
//! preview is the result, not an approximation of it. Nothing is written.
//!
//! [`apply_masks`]: super::apply_masks

use std::path::Path;

use super::mask_record::read_record;
use super::picture::PictureName;
use super::review::{decode, load_png};
use super::review_error::ReviewError;
use super::shot_name::shot_path;
use crate::mask::{burn_in_over_text, MaskRect, MaskStyle};

/// One masked region as it will look once burned in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskPatch {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    /// The region's pixels after every requested mask is burned, as a PNG.
    pub png: Vec<u8>,
}

/// The regions `rects` would change in picture `picture` with `style`, in the order of
/// `rects` (a rectangle entirely outside the image has no patch). Overlapping rectangles
/// each show the final pixels of their area, so the patches agree where they overlap.
pub fn preview_masks(
    evidence_dir: &Path,
    picture: PictureName,
    rects: &[MaskRect],
    style: MaskStyle,
) -> Result<Vec<MaskPatch>, ReviewError> {
    if rects.iter().any(|r| r.w == 0 || r.h == 0) {
        return Err(ReviewError::EmptyMask);
    }
    let path = shot_path(evidence_dir, picture)?;
    let name = picture.to_string();
    let mut img = decode(&load_png(&path, &name)?, &name)?;
    let (width, height) = img.dimensions();
    let record = read_record(&path);
    burn_in_over_text(&mut img, rects, style, &record.text_lines);
    let mut patches = Vec::new();
    for rect in rects {
        let Some((x0, y0, x1, y1)) = rect.clip(width, height) else {
            continue;
        };
        let (w, h) = (x1 - x0, y1 - y0);
        let crop = image::imageops::crop_imm(&img, x0, y0, w, h).to_image();
        let mut png = Vec::new();
        crop.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|e| ReviewError::Decode {
                name: name.clone(),
                message: e.to_string(),
            })?;
        patches.push(MaskPatch {
            x: x0,
            y: y0,
            w,
            h,
            png,
        });
    }
    Ok(patches)
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;
    use crate::evidence::apply_masks;

    const NAME: PictureName = PictureName::Frame {
        attempt: 4,
        frame: 2,
    };

    fn evidence() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let path = NAME.path_in(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        RgbaImage::from_fn(120, 90, |x, y| {
            Rgba([(x * 2) as u8, (y * 3) as u8, ((x * y) % 251) as u8, 255])
        })
        .save(path)
        .unwrap();
        dir
    }

    fn rect(x: u32, y: u32, w: u32, h: u32) -> MaskRect {
        MaskRect {
            x,
            y,
            w,
            h,
            reason: "reviewer".into(),
        }
    }

    /// The preview is pixel for pixel what applying the same masks burns in, for every
    /// style, and previewing writes nothing.
    #[test]
    fn the_preview_is_exactly_what_apply_burns() {
        let rects = [
            rect(5, 5, 60, 30),
            rect(40, 20, 70, 60),
            rect(200, 200, 5, 5),
        ];
        for style in [MaskStyle::Solid, MaskStyle::Pixelate, MaskStyle::Blur] {
            let dir = evidence();
            let file = NAME.path_in(dir.path());
            let before = std::fs::read(&file).unwrap();
            let patches = preview_masks(dir.path(), NAME, &rects, style).unwrap();
            assert_eq!(std::fs::read(&file).unwrap(), before);
            assert_eq!(patches.len(), 2, "the rectangle outside the image has none");
            apply_masks(dir.path(), &[NAME], &rects, style).unwrap();
            let burned = image::open(&file).unwrap().to_rgba8();
            for patch in &patches {
                let shown = image::load_from_memory(&patch.png).unwrap().to_rgba8();
                assert_eq!(shown.dimensions(), (patch.w, patch.h));
                let expected =
                    image::imageops::crop_imm(&burned, patch.x, patch.y, patch.w, patch.h)
                        .to_image();
                assert_eq!(shown, expected, "{style:?} at {},{}", patch.x, patch.y);
            }
        }
    }

    #[test]
    fn each_style_previews_differently() {
        let dir = evidence();
        let rects = [rect(10, 10, 90, 60)];
        let looks: Vec<Vec<u8>> = [MaskStyle::Solid, MaskStyle::Pixelate, MaskStyle::Blur]
            .into_iter()
            .map(|s| {
                preview_masks(dir.path(), NAME, &rects, s).unwrap()[0]
                    .png
                    .clone()
            })
            .collect();
        assert_ne!(looks[0], looks[1]);
        assert_ne!(looks[1], looks[2]);
        assert_ne!(looks[0], looks[2]);
    }

    #[test]
    fn missing_pictures_and_empty_masks_are_refused() {
        let dir = evidence();
        assert!(matches!(
            preview_masks(
                dir.path(),
                PictureName::Screenshot { attempt: 4 },
                &[rect(0, 0, 4, 4)],
                MaskStyle::Solid
            ),
            Err(ReviewError::Missing(_))
        ));
        assert!(matches!(
            preview_masks(dir.path(), NAME, &[rect(0, 0, 0, 4)], MaskStyle::Solid),
            Err(ReviewError::EmptyMask)
        ));
    }
}
