use std::path::Path;

use super::review::{write_record, MaskRecord};
use crate::client::Hub;
use crate::config::MaskingConfig;
use crate::mask::{mask_screenshot, MaskOutcome, RawScreenshot, TextLines};

pub const SCREENSHOTS_DIR: &str = "screenshots";

/// What was archived for one attempt. An unmaskable or failed screenshot is omitted,
/// never archived raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedShot {
    /// Relative to the evidence session folder.
    pub src: Option<String>,
    pub redacted: bool,
    /// Why it was omitted, when it was.
    pub omitted_because: Option<String>,
}

/// Takes a screenshot into a private temp file, masks it with the current hierarchy
/// and archives it as `screenshots/attempt-NNN.png`. The raw file is deleted on return.
pub async fn archive_screenshot(
    hub: &Hub,
    device: &str,
    evidence_dir: &Path,
    attempt: u32,
    masking: &MaskingConfig,
) -> ArchivedShot {
    let omitted = |why: String| ArchivedShot {
        src: None,
        redacted: true,
        omitted_because: Some(why),
    };
    let raw = match RawScreenshot::new() {
        Ok(raw) => raw,
        Err(e) => return omitted(format!("no temp file for the screenshot: {e}")),
    };
    let raw_path = raw.path().to_string_lossy().to_string();
    if let Err(e) = hub.mobile().save_screenshot(device, &raw_path).await {
        return omitted(format!("screenshot failed: {e}"));
    }
    let hierarchy = hub.ui().get_hierarchy(device).await.ok();
    let folder = evidence_dir.join(SCREENSHOTS_DIR);
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return omitted(format!("cannot create {}: {e}", folder.display()));
    }
    let name = format!("attempt-{attempt:03}.png");
    match mask_screenshot(&raw, hierarchy.as_ref(), &[], masking, &folder.join(&name)) {
        Ok(MaskOutcome::Archived { path, masks }) => {
            let record = MaskRecord {
                style: masking.style,
                masks,
                text_lines: hierarchy
                    .as_ref()
                    .map(TextLines::from_hierarchy)
                    .unwrap_or_default(),
            };
            if let Err(e) = write_record(&path, &record) {
                // Only the viewer's overlays are lost: the masks are in the pixels.
                tracing::warn!(error = %e, "mask record not written");
            }
            ArchivedShot {
                src: Some(format!("{SCREENSHOTS_DIR}/{name}")),
                redacted: false,
                omitted_because: None,
            }
        }
        Ok(MaskOutcome::Omitted { reason }) => omitted(reason),
        Err(e) => omitted(format!("masking failed: {e}")),
    }
}
