//! Small previews for the history rows and step cards: decoded, scaled down and encoded
//! again here, so the window never holds more than a few kilobytes per row.

use std::path::{Component, Path, PathBuf};

use super::ReviewError;
use crate::mask::decode_screenshot;

/// A PNG as a `data:` URL: the window shows pictures this way, so nothing lands in a
/// web view's cache.
pub fn png_data_url(png: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

/// Previews are this tall (pixels); the width keeps the aspect ratio.
pub const THUMBNAIL_HEIGHT: u32 = 96;

/// Files over this size are not previewed.
const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// A PNG at most `max_height` tall of the screenshot in `shot`: an archived (masked) PNG,
/// or a recorder's step screenshot, which is whatever the device server saved (PNG, JPEG
/// or WebP, recognised by its bytes and decoded within the masker's bounds).
pub fn thumbnail_png(shot: &[u8], name: &str, max_height: u32) -> Result<Vec<u8>, ReviewError> {
    let img = decode_screenshot(shot).map_err(|reason| ReviewError::Undecodable {
        name: name.to_owned(),
        reason,
    })?;
    let height = max_height.max(1).min(img.height().max(1));
    let width = (u64::from(img.width()) * u64::from(height) / u64::from(img.height().max(1)))
        .clamp(1, u64::from(u32::MAX)) as u32;
    let small = img.thumbnail_exact(width, height);
    let mut out = Vec::new();
    small
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .map_err(|e| ReviewError::Decode {
            name: name.to_owned(),
            message: e.to_string(),
        })?;
    Ok(out)
}

/// The bytes of a recorded step's screenshot: `src` must be a plain relative path inside
/// the session folder (no `..`, no absolute path, no symlink on the way), as docs/design.md §1
/// defines `screenshot_src`; anything else is refused before it is opened.
pub fn session_step_png(session_dir: &Path, src: &str) -> Result<Vec<u8>, ReviewError> {
    let bad = || ReviewError::BadName(src.to_owned());
    let rel = Path::new(src);
    if src.is_empty()
        || src.contains('\0')
        || !rel.components().all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(bad());
    }
    let mut path = PathBuf::from(session_dir);
    for part in rel.components() {
        path.push(part);
        let meta =
            std::fs::symlink_metadata(&path).map_err(|_| ReviewError::Missing(src.to_owned()))?;
        if meta.file_type().is_symlink() {
            return Err(bad());
        }
    }
    let read_err = |source| ReviewError::Read {
        path: path.clone(),
        source,
    };
    let meta = std::fs::metadata(&path).map_err(read_err)?;
    if !meta.is_file() {
        return Err(bad());
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(ReviewError::TooLarge {
            name: src.to_owned(),
            bytes: meta.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    std::fs::read(&path).map_err(read_err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::DecodeFailure;
    use image::{Rgba, RgbaImage};

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        RgbaImage::from_pixel(w, h, Rgba([0, 77, 64, 255]))
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn thumbnails_keep_the_aspect_ratio_and_never_grow() {
        let small = thumbnail_png(&png(1080, 2400), "s", 96).unwrap();
        let img = image::load_from_memory(&small).unwrap();
        assert_eq!((img.width(), img.height()), (43, 96));
        let tiny = thumbnail_png(&png(10, 20), "t", 96).unwrap();
        let img = image::load_from_memory(&tiny).unwrap();
        assert_eq!((img.width(), img.height()), (10, 20));
        assert!(matches!(
            thumbnail_png(b"not a png", "x", 96),
            Err(ReviewError::Undecodable {
                reason: DecodeFailure::UnknownFormat,
                ..
            })
        ));
    }

    /// A recorder's step screenshot is whatever the server saved: a JPEG or WebP gets a
    /// PNG preview too.
    #[test]
    fn jpeg_and_webp_steps_get_png_previews() {
        for format in [image::ImageFormat::Jpeg, image::ImageFormat::WebP] {
            let mut shot = Vec::new();
            image::RgbImage::from_pixel(200, 400, image::Rgb([0, 77, 64]))
                .write_to(&mut std::io::Cursor::new(&mut shot), format)
                .unwrap();
            let small = thumbnail_png(&shot, "step.png", 96).unwrap();
            assert_eq!(
                image::guess_format(&small).unwrap(),
                image::ImageFormat::Png
            );
            let img = image::load_from_memory(&small).unwrap();
            assert_eq!((img.width(), img.height()), (48, 96), "{format:?}");
        }
    }

    #[test]
    fn step_screenshots_are_read_only_from_inside_the_session() {
        let session = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(session.path().join("shots")).unwrap();
        std::fs::write(session.path().join("shots/step-3.png"), png(4, 8)).unwrap();
        assert_eq!(
            session_step_png(session.path(), "shots/step-3.png").unwrap(),
            png(4, 8)
        );
        for bad in [
            "../x.png",
            "/etc/passwd",
            "shots/../../x.png",
            "",
            "shots",
            "a\0b",
        ] {
            assert!(session_step_png(session.path(), bad).is_err(), "{bad:?}");
        }
        assert!(matches!(
            session_step_png(session.path(), "shots/none.png"),
            Err(ReviewError::Missing(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_anywhere_on_the_way_is_refused() {
        let session = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("private.png"), png(4, 8)).unwrap();
        std::os::unix::fs::symlink(outside.path(), session.path().join("shots")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("private.png"),
            session.path().join("step.png"),
        )
        .unwrap();
        assert!(matches!(
            session_step_png(session.path(), "shots/private.png"),
            Err(ReviewError::BadName(_))
        ));
        assert!(matches!(
            session_step_png(session.path(), "step.png"),
            Err(ReviewError::BadName(_))
        ));
    }
}
