use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageBuffer, PixelWithColorType};
use regex::Regex;

use whittle_core::inspect::InspectNode;

use super::nodes::picture_nodes;
use super::outline::draw_outline;
use super::policy::plan_masks;
use super::uniform::is_uniform;
use super::{
    burn_in_over_text, read_screenshot, MaskError, MaskRect, OmitReason, RawScreenshot,
    ScreenPixel, ShotMoment, TextLines,
};
use crate::atomic::{write_atomic, FileMode};
use crate::config::MaskingConfig;

/// What happened to one screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaskOutcome {
    /// The masked PNG was written to `path` with these masks (image pixels) burned in;
    /// `text_lines` is where the hierarchy says text is drawn, in image pixels (Pixelate
    /// and Blur blocks are sized from it, now and when a reviewer adds masks later).
    Archived {
        path: PathBuf,
        masks: Vec<MaskRect>,
        text_lines: TextLines,
        /// The hierarchy on the picture, blanked where it is masked (`nodes.rs`).
        nodes: Vec<InspectNode>,
        /// The picture's size in pixels.
        width: u32,
        height: u32,
    },
    /// It could not be masked reliably, so nothing was archived; record
    /// `screenshot_redacted: true`, no `screenshot_src`, and the reason.
    Omitted { reason: OmitReason },
}

/// Masks `raw` and writes the result to `out` atomically, or omits it, failing closed:
/// the screenshot is archived only when the hierarchy accounts for what it shows (the
/// rules are in `policy.rs` and `docs/SECURITY.md` §4). A blank image is archived as it
/// is; `extra` masks (a reviewer's, in image pixels) are burned in either way.
///
/// `raw` is only read: the caller drops it right after (which deletes the unmasked
/// file) in every case; it is borrowed so a viewer can re-mask with edited rectangles.
pub fn mask_screenshot(
    raw: &RawScreenshot,
    capture: &ShotMoment<'_>,
    extra: &[MaskRect],
    cfg: &MaskingConfig,
    out: &Path,
) -> Result<MaskOutcome, MaskError> {
    masked(raw, capture, extra, cfg, out, None)
}

/// [`mask_screenshot`] with the element at `outline` (image pixels) outlined over the
/// masks, in the same pass (`outline.rs`).
pub(crate) fn mask_screenshot_outlined(
    raw: &RawScreenshot,
    capture: &ShotMoment<'_>,
    cfg: &MaskingConfig,
    out: &Path,
    outline: Option<[i32; 4]>,
) -> Result<MaskOutcome, MaskError> {
    masked(raw, capture, &[], cfg, out, outline)
}

fn masked(
    raw: &RawScreenshot,
    capture: &ShotMoment<'_>,
    extra: &[MaskRect],
    cfg: &MaskingConfig,
    out: &Path,
    outline: Option<[i32; 4]>,
) -> Result<MaskOutcome, MaskError> {
    let patterns = cfg.compile_id_patterns()?;
    // By its bytes: a server may save a JPEG or WebP under the `.png` name it is given.
    let decoded = match read_screenshot(raw.path()) {
        Ok(img) => img,
        Err(why) => return Ok(omitted(OmitReason::Undecodable(why))),
    };
    let job = Job {
        capture,
        extra,
        cfg,
        patterns: &patterns,
        out,
        outline,
    };
    // Masks are burned in the format the device sent when it is 8-bit RGB or RGBA
    // (screencap's formats); converting a full screenshot first costs more than the rest
    // of the masking together. Anything else is converted to RGBA as before.
    match decoded {
        DynamicImage::ImageRgb8(mut img) => job.run(&mut img),
        DynamicImage::ImageRgba8(mut img) => job.run(&mut img),
        other => job.run(&mut other.to_rgba8()),
    }
}

struct Job<'a> {
    capture: &'a ShotMoment<'a>,
    extra: &'a [MaskRect],
    cfg: &'a MaskingConfig,
    patterns: &'a [Regex],
    out: &'a Path,
    outline: Option<[i32; 4]>,
}

impl Job<'_> {
    fn run<P: ScreenPixel + PixelWithColorType + PartialEq>(
        &self,
        img: &mut ImageBuffer<P, Vec<u8>>,
    ) -> Result<MaskOutcome, MaskError> {
        let (width, height) = img.dimensions();
        let (mut masks, text_lines, scale) = if is_uniform(img, (0, 0, width, height)) {
            // A blank frame (black while an app starts, a splash colour) shows nothing,
            // and no node is on it.
            (Vec::new(), TextLines::default(), None)
        } else {
            match plan_masks(self.capture, width, height, self.cfg.level, self.patterns) {
                Ok(plan) => {
                    let mut masks = plan.masks;
                    masks.extend(plan.outside.into_iter().filter(|strip| {
                        strip
                            .clip(width, height)
                            .is_some_and(|region| !is_uniform(img, region))
                    }));
                    (masks, plan.text_lines, Some(plan.scale))
                }
                Err(reason) => return Ok(omitted(reason)),
            }
        };
        masks.extend(self.extra.iter().cloned());
        burn_in_over_text(img, &masks, self.cfg.style, &text_lines);
        if let Some(bounds) = self.outline {
            draw_outline(img, bounds);
        }
        write_png_atomically(img, self.out)?;
        let nodes = match (scale, self.capture.after) {
            (Some(scale), Some(after)) => picture_nodes(after, scale, &masks),
            _ => Vec::new(),
        };
        Ok(MaskOutcome::Archived {
            path: self.out.to_path_buf(),
            masks,
            text_lines,
            nodes,
            width,
            height,
        })
    }
}

fn omitted(reason: OmitReason) -> MaskOutcome {
    MaskOutcome::Omitted { reason }
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
    use whittle_contract::ui::{Hierarchy, UiElement};

    use super::*;

    /// An RGB screenshot (the simulator's and many devices' format) is masked and
    /// archived without a detour through RGBA, and the mask is really in the pixels.
    #[test]
    fn an_rgb_screenshot_is_masked_in_its_own_format() {
        let dir = tempfile::tempdir().unwrap();
        let raw = RawScreenshot::new_in(dir.path()).unwrap();
        let white = Rgb([250, 250, 250]);
        // Not blank (a blank frame is archived without masks): one dark corner pixel.
        let mut img = RgbImage::from_pixel(120, 200, white);
        img.put_pixel(119, 199, Rgb([1, 2, 3]));
        img.save_with_format(raw.path(), image::ImageFormat::Png)
            .unwrap();
        let element = |class: &str, bounds: [i32; 4]| UiElement {
            class: class.into(),
            bounds,
            package: Some("app".into()),
            ..UiElement::default()
        };
        let mut password = element("android.widget.EditText", [10, 20, 110, 60]);
        password.password = true;
        let hierarchy = Hierarchy {
            elements: vec![
                element("android.widget.FrameLayout", [0, 0, 120, 200]),
                password,
            ],
        };
        let out = dir.path().join("masked.png");
        let outcome = mask_screenshot(
            &raw,
            &ShotMoment::still(Some(&hierarchy), "app"),
            &[],
            &MaskingConfig::default(),
            &out,
        )
        .unwrap();
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
