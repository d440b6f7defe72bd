//! A reviewer's pass over the archived screenshots of an evidence session: see each
//! masked image with the masks already burned into it, burn more masks in, or omit a
//! screenshot entirely. The unmasked image is never kept, so masks only ever add.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SCREENSHOTS_DIR;
use crate::atomic::{write_atomic, FileMode};
use crate::config::PrivacyLevel;
use crate::mask::{
    burn_in_over_text, write_png_atomically, DecodeFailure, MaskError, MaskRect, MaskStyle,
    TextLines,
};

/// Screenshots larger than this are refused rather than decoded into memory.
const MAX_SCREENSHOT_BYTES: u64 = 64 * 1024 * 1024;

/// Next to each archived `attempt-NNN.png`: which masks are burned into it, at which
/// privacy level it was archived (`None` in records written before levels existed), and
/// where the hierarchy reported text (so masks added later hide it as well as the first
/// ones).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaskRecord {
    pub style: MaskStyle,
    pub masks: Vec<MaskRect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<PrivacyLevel>,
    #[serde(default)]
    pub text_lines: TextLines,
}

/// One archived screenshot as a reviewer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedShot {
    pub name: String,
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub record: MaskRecord,
}

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("“{0}” is not a screenshot of this evidence session")]
    BadName(String),
    #[error("screenshot {0} is not there (omitted, or never archived)")]
    Missing(String),
    #[error("screenshot {name} is {bytes} bytes, over the {limit}-byte limit")]
    TooLarge {
        name: String,
        bytes: u64,
        limit: u64,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("screenshot {name} is not a readable PNG: {message}")]
    Decode { name: String, message: String },
    #[error("screenshot {name} could not be decoded: {reason}")]
    Undecodable {
        name: String,
        #[source]
        reason: DecodeFailure,
    },
    #[error("cannot remove {path}: {source}")]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("a mask must have a width and a height of at least 1 pixel")]
    EmptyMask,
    #[error("cannot save {path}: {source}")]
    Save {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Mask(#[from] MaskError),
}

/// `screenshots/attempt-NNN.png` and nothing else: the name comes from the UI, so
/// anything that could leave the folder is refused before a path is built.
pub fn validate_shot_name(name: &str) -> Result<&str, ReviewError> {
    let bad = || ReviewError::BadName(name.to_owned());
    let file = name
        .strip_prefix(SCREENSHOTS_DIR)
        .and_then(|rest| rest.strip_prefix('/'))
        .ok_or_else(bad)?;
    let digits = file
        .strip_prefix("attempt-")
        .and_then(|rest| rest.strip_suffix(".png"))
        .ok_or_else(bad)?;
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(file)
}

/// The record file of a screenshot: `attempt-NNN.masks.json`.
pub fn record_path(png: &Path) -> PathBuf {
    png.with_extension("masks.json")
}

/// Writes the record of the masks just burned into `png`. A missing record only costs
/// the overlays in the viewer, never privacy, so failures are the caller's to report.
pub fn write_record(png: &Path, record: &MaskRecord) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    write_atomic(&record_path(png), &json, FileMode::Private)
}

pub(crate) fn read_record(png: &Path) -> MaskRecord {
    std::fs::read(record_path(png))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

pub(crate) fn shot_path(evidence_dir: &Path, name: &str) -> Result<PathBuf, ReviewError> {
    let file = validate_shot_name(name)?;
    let path = evidence_dir.join(SCREENSHOTS_DIR).join(file);
    // A symlink could point the viewer (or a rewrite) outside the evidence session.
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_file() => Ok(path),
        Ok(_) => Err(ReviewError::BadName(name.to_owned())),
        Err(_) => Err(ReviewError::Missing(name.to_owned())),
    }
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
pub fn review_shot(evidence_dir: &Path, name: &str) -> Result<ReviewedShot, ReviewError> {
    let path = shot_path(evidence_dir, name)?;
    let png = load_png(&path, name)?;
    let (width, height) =
        image::ImageReader::with_format(std::io::Cursor::new(&png), image::ImageFormat::Png)
            .into_dimensions()
            .map_err(|e| ReviewError::Decode {
                name: name.to_owned(),
                message: e.to_string(),
            })?;
    Ok(ReviewedShot {
        name: name.to_owned(),
        png,
        width,
        height,
        record: read_record(&path),
    })
}

/// Burns `rects` into each named screenshot (atomically, one file at a time) and
/// records them. Returns how many images changed; a rectangle outside an image is
/// clipped away, so the count may be lower than the number of names.
pub fn apply_masks(
    evidence_dir: &Path,
    names: &[String],
    rects: &[MaskRect],
    style: MaskStyle,
) -> Result<u32, ReviewError> {
    if rects.iter().any(|r| r.w == 0 || r.h == 0) {
        return Err(ReviewError::EmptyMask);
    }
    // Validate every name before touching any file, so a bad batch changes nothing.
    let paths = names
        .iter()
        .map(|name| shot_path(evidence_dir, name).map(|p| (name, p)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut changed = 0;
    for (name, path) in paths {
        let mut img = decode(&load_png(&path, name)?, name)?;
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

/// Deletes a screenshot (and its record) so that neither the evidence nor an export
/// will carry it, and notes the omission on the review checklist.
pub fn omit_shot(evidence_dir: &Path, name: &str) -> Result<(), ReviewError> {
    let path = shot_path(evidence_dir, name)?;
    std::fs::remove_file(&path).map_err(|source| ReviewError::Remove {
        path: path.clone(),
        source,
    })?;
    let _ = std::fs::remove_file(record_path(&path));
    if let Err(e) = super::checklist::note_omitted(evidence_dir, name) {
        // The image is gone either way; only the checklist's count is off.
        tracing::warn!(error = %e, "omission not noted on the review checklist");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};

    fn evidence_with_shot(color: [u8; 4]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let shots = dir.path().join(SCREENSHOTS_DIR);
        std::fs::create_dir_all(&shots).unwrap();
        let img = RgbaImage::from_pixel(40, 30, Rgba(color));
        img.save(shots.join("attempt-001.png")).unwrap();
        img.save(shots.join("attempt-002.png")).unwrap();
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
    fn only_attempt_pngs_in_the_screenshots_folder_are_names() {
        for good in [
            "screenshots/attempt-001.png",
            "screenshots/attempt-1234.png",
        ] {
            assert!(validate_shot_name(good).is_ok(), "{good}");
        }
        for bad in [
            "screenshots/../result.json",
            "/etc/passwd",
            "screenshots/attempt-001.png/..",
            "screenshots/attempt-.png",
            "screenshots/attempt-00a.png",
            "screenshots/attempt-001.PNG",
            "screenshots/sub/attempt-001.png",
            "screenshots/attempt-001.png\0",
            "other/attempt-001.png",
        ] {
            assert!(
                matches!(validate_shot_name(bad), Err(ReviewError::BadName(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn review_reports_size_and_burned_masks() {
        let dir = evidence_with_shot([200, 10, 10, 255]);
        let png = dir.path().join("screenshots/attempt-001.png");
        let record = MaskRecord {
            style: MaskStyle::Pixelate,
            masks: vec![rect(1, 2, 3, 4)],
            level: Some(PrivacyLevel::Strict),
            text_lines: TextLines::new(vec![[0, 0, 40, 12]]),
        };
        write_record(&png, &record).unwrap();
        let shot = review_shot(dir.path(), "screenshots/attempt-001.png").unwrap();
        assert_eq!((shot.width, shot.height), (40, 30));
        assert_eq!(shot.record, record);
        assert_eq!(&shot.png[1..4], b"PNG");
    }

    #[test]
    fn applied_masks_are_burned_into_every_named_image_and_recorded() {
        let dir = evidence_with_shot([200, 10, 10, 255]);
        let names = vec![
            "screenshots/attempt-001.png".to_string(),
            "screenshots/attempt-002.png".to_string(),
        ];
        let changed =
            apply_masks(dir.path(), &names, &[rect(5, 5, 10, 10)], MaskStyle::Solid).unwrap();
        assert_eq!(changed, 2);
        for name in &names {
            let img = image::open(dir.path().join(name)).unwrap().to_rgba8();
            assert_ne!(img.get_pixel(8, 8), &Rgba([200, 10, 10, 255]), "{name}");
            assert_eq!(img.get_pixel(30, 25), &Rgba([200, 10, 10, 255]), "{name}");
            let shot = review_shot(dir.path(), name).unwrap();
            assert_eq!(shot.record.masks, vec![rect(5, 5, 10, 10)]);
        }
    }

    #[test]
    fn a_bad_name_in_a_batch_changes_nothing() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let before = std::fs::read(dir.path().join("screenshots/attempt-001.png")).unwrap();
        let names = vec![
            "screenshots/attempt-001.png".to_string(),
            "screenshots/../../secret.png".to_string(),
        ];
        let err = apply_masks(dir.path(), &names, &[rect(0, 0, 5, 5)], MaskStyle::Solid);
        assert!(matches!(err, Err(ReviewError::BadName(_))));
        let after = std::fs::read(dir.path().join("screenshots/attempt-001.png")).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn empty_masks_and_masks_outside_the_image() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let names = vec!["screenshots/attempt-001.png".to_string()];
        assert!(matches!(
            apply_masks(dir.path(), &names, &[rect(0, 0, 0, 5)], MaskStyle::Solid),
            Err(ReviewError::EmptyMask)
        ));
        let changed = apply_masks(
            dir.path(),
            &names,
            &[rect(400, 400, 5, 5)],
            MaskStyle::Solid,
        )
        .unwrap();
        assert_eq!(changed, 0);
    }

    #[test]
    fn omitted_screenshots_are_gone_with_their_record() {
        let dir = evidence_with_shot([1, 2, 3, 255]);
        let png = dir.path().join("screenshots/attempt-001.png");
        write_record(&png, &MaskRecord::default()).unwrap();
        omit_shot(dir.path(), "screenshots/attempt-001.png").unwrap();
        assert!(!png.exists());
        assert!(!record_path(&png).exists());
        assert!(matches!(
            review_shot(dir.path(), "screenshots/attempt-001.png"),
            Err(ReviewError::Missing(_))
        ));
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
        let link = dir.path().join("screenshots/attempt-003.png");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(review_shot(dir.path(), "screenshots/attempt-003.png").is_err());
        let names = vec!["screenshots/attempt-003.png".to_string()];
        assert!(apply_masks(dir.path(), &names, &[rect(0, 0, 2, 2)], MaskStyle::Solid).is_err());
        assert!(omit_shot(dir.path(), "screenshots/attempt-003.png").is_err());
        assert!(target.exists());
    }
}
