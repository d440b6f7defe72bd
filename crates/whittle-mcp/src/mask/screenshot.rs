use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageBuffer, PixelWithColorType};
use whittle_core::contract::ui::Hierarchy;

use super::{
    auto_masks, burn_in_over_text, MaskError, MaskRect, RawScreenshot, ScreenPixel, TextLines,
};
use crate::atomic::{write_atomic, FileMode};
use crate::config::MaskingConfig;

/// What happened to one screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaskOutcome {
    /// The masked PNG was written to `path` with these masks burned in.
    Archived { path: PathBuf, masks: Vec<MaskRect> },
    /// It could not be masked reliably, so nothing was archived; record
    /// `screenshot_redacted: true` and no `screenshot_src`.
    Omitted { reason: String },
}

/// Masks `raw` with the hierarchy's auto masks plus `extra`, and writes the result to
/// `out` atomically. It is omitted instead when there is no hierarchy (nothing tells us
/// where private data is), when the image does not cover the hierarchy's bounds (the
/// masks would land in the wrong place), or when it cannot be decoded.
///
/// `raw` is only read: the caller drops it right after (which deletes the unmasked
/// file) in every case; it is borrowed so a viewer can re-mask with edited rectangles.
pub fn mask_screenshot(
    raw: &RawScreenshot,
    hierarchy: Option<&Hierarchy>,
    extra: &[MaskRect],
    cfg: &MaskingConfig,
    out: &Path,
) -> Result<MaskOutcome, MaskError> {
    let patterns = cfg.compile_id_patterns()?;
    let Some(hierarchy) = hierarchy else {
        return Ok(omitted("no UI hierarchy to locate private data"));
    };
    let decoded = match image::open(raw.path()) {
        Ok(img) => img,
        Err(e) => return Ok(omitted(&format!("screenshot could not be decoded: {e}"))),
    };
    let (width, height) = (decoded.width(), decoded.height());
    let (need_w, need_h) = hierarchy_extent(hierarchy);
    if need_w > width || need_h > height {
        return Ok(omitted(&format!(
            "screenshot is {width}x{height} but the UI extends to {need_w}x{need_h}"
        )));
    }

    let mut masks = auto_masks(hierarchy, &patterns);
    masks.extend(extra.iter().cloned());
    let text = TextLines::from_hierarchy(hierarchy);
    // Masks are burned in the format the device sent when it is 8-bit RGB or RGBA
    // (screencap's formats); converting a full screenshot first costs more than the rest
    // of the masking together. Anything else is converted to RGBA as before.
    match decoded {
        DynamicImage::ImageRgb8(mut img) => burn_and_write(&mut img, &masks, &text, cfg, out)?,
        DynamicImage::ImageRgba8(mut img) => burn_and_write(&mut img, &masks, &text, cfg, out)?,
        other => burn_and_write(&mut other.to_rgba8(), &masks, &text, cfg, out)?,
    }
    Ok(MaskOutcome::Archived {
        path: out.to_path_buf(),
        masks,
    })
}

fn burn_and_write<P: ScreenPixel + PixelWithColorType>(
    img: &mut ImageBuffer<P, Vec<u8>>,
    masks: &[MaskRect],
    text: &TextLines,
    cfg: &MaskingConfig,
    out: &Path,
) -> Result<(), MaskError> {
    burn_in_over_text(img, masks, cfg.style, text);
    write_png_atomically(img, out)
}

fn omitted(reason: &str) -> MaskOutcome {
    MaskOutcome::Omitted {
        reason: reason.to_string(),
    }
}

/// The right and bottom edges the visible hierarchy reaches.
fn hierarchy_extent(h: &Hierarchy) -> (u32, u32) {
    h.elements
        .iter()
        .filter(|e| e.visible)
        .fold((0, 0), |(w, hh), e| {
            (
                w.max(e.bounds[2].max(0) as u32),
                hh.max(e.bounds[3].max(0) as u32),
            )
        })
}

pub(crate) fn write_png_atomically<P: ScreenPixel + PixelWithColorType>(
    img: &ImageBuffer<P, Vec<u8>>,
    out: &Path,
) -> Result<(), MaskError> {
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .map_err(|e| MaskError::Encode {
        path: out.to_path_buf(),
        message: e.to_string(),
    })?;
    write_atomic(out, &bytes, FileMode::Private).map_err(|source| MaskError::Write {
        path: out.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use image::{Rgb, RgbImage};
    use whittle_core::contract::ui::UiElement;

    use super::*;

    /// An RGB screenshot (the simulator's and many devices' format) is masked and
    /// archived without a detour through RGBA, and the mask is really in the pixels.
    #[test]
    fn an_rgb_screenshot_is_masked_in_its_own_format() {
        let dir = tempfile::tempdir().unwrap();
        let raw = RawScreenshot::new_in(dir.path()).unwrap();
        let white = Rgb([250, 250, 250]);
        RgbImage::from_pixel(120, 200, white)
            .save_with_format(raw.path(), image::ImageFormat::Png)
            .unwrap();
        let hierarchy = Hierarchy {
            elements: vec![UiElement {
                resource_id: "app:id/pw".into(),
                text: String::new(),
                content_desc: String::new(),
                class: "android.widget.EditText".into(),
                bounds: [10, 20, 110, 60],
                password: true,
                focused: false,
                visible: true,
            }],
        };
        let out = dir.path().join("masked.png");
        let outcome =
            mask_screenshot(&raw, Some(&hierarchy), &[], &MaskingConfig::default(), &out).unwrap();
        assert!(matches!(outcome, MaskOutcome::Archived { ref masks, .. } if masks.len() == 1));
        let archived = image::open(&out).unwrap();
        assert!(matches!(archived, DynamicImage::ImageRgb8(_)), "kept RGB");
        let archived = archived.to_rgb8();
        assert_eq!(*archived.get_pixel(10, 20), Rgb([0, 0, 0]));
        assert_eq!(*archived.get_pixel(109, 59), Rgb([0, 0, 0]));
        assert_eq!(*archived.get_pixel(110, 60), white);
        assert_eq!(*archived.get_pixel(5, 5), white);
    }
}
