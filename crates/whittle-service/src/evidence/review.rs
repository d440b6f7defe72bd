//! A reviewer's pass over the archived pictures of an evidence session (the attempts'
//! screenshots and the filmstrip frames): see each masked image with the masks already
//! burned into it, burn more masks in, or omit a picture entirely. The unmasked image is never kept, so masks only ever add.

use std::path::Path;

use super::filmstrip::FilmstripRecord;
use super::mask_record::{read_record, record_path, write_record, MaskRecord};
use super::picture::PictureName;
use super::review_error::ReviewError;
use super::shot_name::shot_path;
use crate::mask::{blank_under, burn_in_over_text, write_png_atomically, MaskRect, MaskStyle};

/// Screenshots larger than this are refused rather than decoded into memory.
const MAX_SCREENSHOT_BYTES: u64 = 64 * 1024 * 1024;

/// One archived picture as a reviewer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedShot {
    pub name: PictureName,
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub record: MaskRecord,
}

pub(crate) fn load_png(path: &Path, name: &str) -> Result<Vec<u8>, ReviewError> {
    let read_err = |source| ReviewError::Read {
        path: path.to_path_buf(),
        source,
    };
    let bytes = std::fs::metadata(path).map_err(read_err)?.len();
    if bytes > MAX_SCREENSHOT_BYTES {
        return Err(ReviewError::TooLarge {
            name: name.to_owned(),
            bytes,
            limit: MAX_SCREENSHOT_BYTES,
        });
    }
    std::fs::read(path).map_err(read_err)
}

/// The archived (already masked) image and the masks burned into it.
pub fn review_shot(evidence_dir: &Path, picture: PictureName) -> Result<ReviewedShot, ReviewError> {
    let path = shot_path(evidence_dir, picture)?;
    let name = picture.to_string();
    let png = load_png(&path, &name)?;
    let (width, height) =
        image::ImageReader::with_format(std::io::Cursor::new(&png), image::ImageFormat::Png)
            .into_dimensions()
            .map_err(|e| ReviewError::Decode {
                name,
                message: e.to_string(),
            })?;
    Ok(ReviewedShot {
        name: picture,
        png,
        width,
        height,
        record: read_record(&path),
    })
}

/// Burns `rects` into each named picture (atomically, one file at a time) and records
/// them. Returns how many images changed; a rectangle outside an image is clipped away,
/// so the count may be lower than the number of names.
pub fn apply_masks(
    evidence_dir: &Path,
    pictures: &[PictureName],
    rects: &[MaskRect],
    style: MaskStyle,
) -> Result<u32, ReviewError> {
    if rects.iter().any(|r| r.w == 0 || r.h == 0) {
        return Err(ReviewError::EmptyMask);
    }
    // Validate every name before touching any file, so a bad batch changes nothing.
    let paths = pictures
        .iter()
        .map(|&picture| shot_path(evidence_dir, picture).map(|p| (picture.to_string(), p)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut changed = 0;
    for (name, path) in paths {
        let mut img = decode(&load_png(&path, &name)?, &name)?;
        let (w, h) = img.dimensions();
        let inside: Vec<MaskRect> = rects
            .iter()
            .filter(|r| r.x < w && r.y < h)
            .cloned()
            .collect();
        if inside.is_empty() {
            continue;
        }
        let mut record = read_record(&path);
        burn_in_over_text(&mut img, &inside, style, &record.text_lines);
        write_png_atomically(&img, &path)?;
        // The words under the new masks go too: the nodes say what the picture shows.
        blank_under(&mut record.nodes, &inside);
        record.masks.extend(inside);
        record.style = style;
        if let Err(e) = write_record(&path, &record) {
            tracing::warn!(error = %e, "mask record not updated");
        }
        changed += 1;
    }
    Ok(changed)
}

/// An archived PNG as RGBA pixels, the format reviewer masks are burned in.
pub(crate) fn decode(png: &[u8], name: &str) -> Result<image::RgbaImage, ReviewError> {
    Ok(
        image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .map_err(|e| ReviewError::Decode {
                name: name.to_owned(),
                message: e.to_string(),
            })?
            .to_rgba8(),
    )
}

/// Deletes a picture (and its record) so that neither the evidence nor an export will
/// carry it, and notes the omission on the review checklist (and, for a frame, in the
/// filmstrip's record).
pub fn omit_shot(evidence_dir: &Path, picture: PictureName) -> Result<(), ReviewError> {
    let path = shot_path(evidence_dir, picture)?;
    std::fs::remove_file(&path).map_err(|source| ReviewError::Remove {
        path: path.clone(),
        source,
    })?;
    let _ = std::fs::remove_file(record_path(&path));
    if let Err(e) = super::checklist::note_omitted(evidence_dir, picture) {
        // The image is gone either way; only the checklist's count is off.
        tracing::warn!(error = %e, "omission not noted on the review checklist");
    }
    if let PictureName::Frame { .. } = picture {
        if let Err(e) = FilmstripRecord::note_omitted(evidence_dir, picture) {
            // The frame is gone either way; the strip only says "could not be read".
            tracing::warn!(error = %e, "omission not noted in the filmstrip record");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};

    use crate::config::PrivacyLevel;
    use crate::evidence::{FILMSTRIP_DIR, SCREENSHOTS_DIR};
    use crate::mask::TextLines;

    const SHOT_1: PictureName = PictureName::Screenshot { attempt: 1 };
    const SHOT_2: PictureName = PictureName::Screenshot { attempt: 2 };
    const FRAME: PictureName = PictureName::Frame {
        attempt: 2,
        frame: 1,
    };

    /// Two attempt screenshots and one filmstrip frame, all one colour.
    fn evidence_with_shot(color: [u8; 4]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let img = RgbaImage::from_pixel(40, 30, Rgba(color));
        for picture in [SHOT_1, SHOT_2, FRAME] {
            let path = picture.path_in(dir.path());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            img.save(path).unwrap();
        }
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

    #[test]
    fn review_reports_size_and_burned_masks() {
        let dir = evidence_with_shot([200, 10, 10, 255]);
        let record = MaskRecord {
            style: MaskStyle::Pixelate,
            masks: vec![rect(1, 2, 3, 4)],
            level: Some(PrivacyLevel::Strict),
            text_lines: TextLines::new(vec![[0, 0, 40, 12]]),
            nodes: Vec::new(),
        };
        for picture in [SHOT_1, FRAME] {
            write_record(&picture.path_in(dir.path()), &record).unwrap();
            let shot = review_shot(dir.path(), picture).unwrap();
            assert_eq!(shot.name, picture);
            assert_eq!((shot.width, shot.height), (40, 30));
            assert_eq!(shot.record, record);
            assert_eq!(&shot.png[1..4], b"PNG");
        }
    }

    #[test]
    fn applied_masks_are_burned_into_every_named_image_and_recorded() {
        let dir = evidence_with_shot([200, 10, 10, 255]);
        let pictures = [SHOT_1, SHOT_2, FRAME];
        let changed = apply_masks(
            dir.path(),
            &pictures,
            &[rect(5, 5, 10, 10)],
            MaskStyle::Solid,
        )
        .unwrap();
        assert_eq!(changed, 3);
        for picture in pictures {
            let img = image::open(picture.path_in(dir.path())).unwrap().to_rgba8();
            assert_ne!(img.get_pixel(8, 8), &Rgba([200, 10, 10, 255]), "{picture}");
            assert_eq!(
                img.get_pixel(30, 25),
                &Rgba([200, 10, 10, 255]),
                "{picture}"
            );
            let shot = review_shot(dir.path(), picture).unwrap();
            assert_eq!(shot.record.masks, vec![rect(5, 5, 10, 10)]);
        }
    }

    #[test]
    fn a_missing_picture_in_a_batch_changes_nothing() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let before = std::fs::read(SHOT_1.path_in(dir.path())).unwrap();
        let gone = PictureName::Frame {
            attempt: 2,
            frame: 9,
        };
        let err = apply_masks(
            dir.path(),
            &[SHOT_1, gone],
            &[rect(0, 0, 5, 5)],
            MaskStyle::Solid,
        );
        assert!(matches!(err, Err(ReviewError::Missing(_))));
        let after = std::fs::read(SHOT_1.path_in(dir.path())).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn empty_masks_and_masks_outside_the_image() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        assert!(matches!(
            apply_masks(dir.path(), &[SHOT_1], &[rect(0, 0, 0, 5)], MaskStyle::Solid),
            Err(ReviewError::EmptyMask)
        ));
        let changed = apply_masks(
            dir.path(),
            &[SHOT_1],
            &[rect(400, 400, 5, 5)],
            MaskStyle::Solid,
        )
        .unwrap();
        assert_eq!(changed, 0);
    }

    #[test]
    fn omitted_pictures_are_gone_with_their_record() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        for picture in [SHOT_1, FRAME] {
            let png = picture.path_in(dir.path());
            write_record(&png, &MaskRecord::default()).unwrap();
            omit_shot(dir.path(), picture).unwrap();
            assert!(!png.exists());
            assert!(!record_path(&png).exists());
            assert!(matches!(
                review_shot(dir.path(), picture),
                Err(ReviewError::Missing(_))
            ));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_screenshot_is_not_followed() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("private.png");
        RgbaImage::from_pixel(4, 4, Rgba([9, 9, 9, 255]))
            .save(&target)
            .unwrap();
        let link = PictureName::Screenshot { attempt: 3 };
        std::os::unix::fs::symlink(&target, link.path_in(dir.path())).unwrap();
        assert!(review_shot(dir.path(), link).is_err());
        assert!(apply_masks(dir.path(), &[link], &[rect(0, 0, 2, 2)], MaskStyle::Solid).is_err());
        assert!(omit_shot(dir.path(), link).is_err());
        assert!(target.exists());
    }

    /// A folder on the way that is a symlink is refused as well: a strip's folder could
    /// otherwise lead out of the session with an ordinary file name at its end.
    #[cfg(unix)]
    #[test]
    fn a_symlinked_folder_is_not_followed() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let outside = tempfile::tempdir().unwrap();
        RgbaImage::from_pixel(4, 4, Rgba([9, 9, 9, 255]))
            .save(outside.path().join("step-01.png"))
            .unwrap();
        let strip = dir.path().join(FILMSTRIP_DIR).join("attempt-007");
        std::os::unix::fs::symlink(outside.path(), &strip).unwrap();
        let frame = PictureName::Frame {
            attempt: 7,
            frame: 1,
        };
        assert!(matches!(
            review_shot(dir.path(), frame),
            Err(ReviewError::BadName(_))
        ));
        assert!(omit_shot(dir.path(), frame).is_err());
        assert!(outside.path().join("step-01.png").exists());
        // The screenshots folder itself, too.
        let other = tempfile::tempdir().unwrap();
        std::fs::remove_dir_all(dir.path().join(SCREENSHOTS_DIR)).unwrap();
        std::os::unix::fs::symlink(other.path(), dir.path().join(SCREENSHOTS_DIR)).unwrap();
        RgbaImage::from_pixel(4, 4, Rgba([9, 9, 9, 255]))
            .save(other.path().join("attempt-001.png"))
            .unwrap();
        assert!(review_shot(dir.path(), SHOT_1).is_err());
    }
}
