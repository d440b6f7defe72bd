//! One live frame: the same capture and masking as an archived screenshot (two reads of
//! the hierarchy around the screenshot, fail-closed masks), written to a private scratch
//! folder only long enough to be scaled down, then deleted.

use std::path::Path;

use whittle_core::inspect::InspectNode;

use crate::config::MaskingConfig;
use crate::evidence::{thumbnail_png, DeviceScreen, ShotOmission};
use crate::mask::{mask_screenshot, MaskOutcome, OmitReason, RawScreenshot, ShotMoment};

/// Live frames are at most this tall: enough to follow a replay, a few tens of
/// kilobytes each.
pub(crate) const LIVE_HEIGHT: u32 = 480;

/// A masked frame, scaled down.
pub(crate) struct Taken {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The hierarchy on the full-size frame (blanked where masked) and that frame's
    /// pixels per pixel of `png`.
    pub nodes: Vec<InspectNode>,
    pub shrink: f64,
}

/// Why no frame came: nothing to show (the screen moved while it was captured; the next
/// look will do), or a reason the viewer tells.
pub(crate) enum NoFrame {
    Moving,
    Omitted(ShotOmission),
}

pub(crate) async fn take_frame(
    screen: &impl DeviceScreen,
    package: &str,
    masking: &MaskingConfig,
    scratch: &Path,
) -> Result<Taken, NoFrame> {
    let failed = |detail: String| NoFrame::Omitted(ShotOmission::CaptureFailed { detail });
    let raw = RawScreenshot::new_in(scratch).map_err(|e| failed(e.to_string()))?;
    let before = screen.hierarchy().await;
    screen
        .screenshot(&raw.path().to_string_lossy())
        .await
        .map_err(|e| failed(e.to_string()))?;
    let after = screen.hierarchy().await;
    let capture = ShotMoment {
        before: before.as_ref(),
        after: after.as_ref(),
        package,
    };
    let out = scratch.join("live.png");
    let outcome = mask_screenshot(&raw, &capture, &[], masking, &out);
    drop(raw);
    match outcome {
        Ok(MaskOutcome::Archived {
            path,
            nodes,
            height,
            ..
        }) => {
            let masked = std::fs::read(&path);
            let _ = std::fs::remove_file(&path);
            let masked = masked.map_err(|e| failed(e.to_string()))?;
            let png =
                thumbnail_png(&masked, "live", LIVE_HEIGHT).map_err(|e| failed(e.to_string()))?;
            let (small_w, small_h) =
                png_size(&png).ok_or_else(|| failed("unreadable frame".into()))?;
            Ok(Taken {
                png,
                width: small_w,
                height: small_h,
                nodes,
                shrink: f64::from(height) / f64::from(small_h.max(1)),
            })
        }
        Ok(MaskOutcome::Omitted {
            reason: OmitReason::ScreenChanged,
        }) => Err(NoFrame::Moving),
        Ok(MaskOutcome::Omitted { reason }) => Err(NoFrame::Omitted(ShotOmission::of(&reason))),
        Err(e) => Err(failed(format!("masking failed: {e}"))),
    }
}

fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    image::ImageReader::with_format(std::io::Cursor::new(png), image::ImageFormat::Png)
        .into_dimensions()
        .ok()
}
