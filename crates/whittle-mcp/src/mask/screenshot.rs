use std::path::{Path, PathBuf};

use whittle_core::contract::ui::Hierarchy;

use super::{auto_masks, burn_in, MaskError, MaskRect, RawScreenshot};
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
    let mut img = match image::open(raw.path()) {
        Ok(img) => img.to_rgba8(),
        Err(e) => return Ok(omitted(&format!("screenshot could not be decoded: {e}"))),
    };
    let (width, height) = img.dimensions();
    let (need_w, need_h) = hierarchy_extent(hierarchy);
    if need_w > width || need_h > height {
        return Ok(omitted(&format!(
            "screenshot is {width}x{height} but the UI extends to {need_w}x{need_h}"
        )));
    }

    let mut masks = auto_masks(hierarchy, &patterns);
    masks.extend(extra.iter().cloned());
    burn_in(&mut img, &masks, cfg.style);
    write_png_atomically(&img, out)?;
    Ok(MaskOutcome::Archived {
        path: out.to_path_buf(),
        masks,
    })
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

pub(crate) fn write_png_atomically(img: &image::RgbaImage, out: &Path) -> Result<(), MaskError> {
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
