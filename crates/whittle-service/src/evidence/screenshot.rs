use std::path::Path;

use tracing::Instrument;
use whittle_contract::ui::Hierarchy;

use super::mask_record::{write_record, MaskRecord};
use super::picture::PictureName;
use crate::client::{Hub, McpError};
use crate::config::MaskingConfig;
use crate::mask::ShotOmission;
use crate::mask::{mask_screenshot, MaskOutcome, OmitReason, RawScreenshot, ShotMoment};

// Defined with the picture names; named here too, where screenshots are archived.
pub use super::picture::SCREENSHOTS_DIR;

/// How many times a screenshot is taken when the screen changes while it is captured:
/// once, then one retake; a screen still moving after that is omitted.
const TAKES: u32 = 2;

/// What was archived for one attempt. An unmaskable or failed screenshot is omitted,
/// never archived raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedShot {
    /// Relative to the evidence session folder.
    pub src: Option<String>,
    pub redacted: bool,
    /// Why it was omitted, when it was.
    pub omitted_because: Option<ShotOmission>,
}

/// Takes a screenshot of `package`'s screen on `device` into a private temp file between
/// two reads of the UI hierarchy, masks it (retaking it once if the two reads differ)
/// and archives it as `screenshots/attempt-NNN.png` with its `.masks.json` record. The
/// raw file is deleted on return.
pub async fn archive_screenshot(
    hub: &Hub,
    device: &str,
    package: &str,
    evidence_dir: &Path,
    attempt: u32,
    masking: &MaskingConfig,
) -> ArchivedShot {
    let span = tracing::info_span!("archive_screenshot", attempt, device, level = %masking.level);
    let screen = HubScreen::new(hub, device);
    archive(&screen, package, evidence_dir, attempt, masking)
        .instrument(span)
        .await
}

/// The two things archiving needs from a device; the hub in production, a scripted
/// screen in tests (where the screen has to change at an exact moment).
pub(crate) trait DeviceScreen {
    /// Why a screenshot was not saved; only its words reach the archive's omission note.
    type ScreenshotError: std::fmt::Display;
    /// The current UI hierarchy; `None` when it cannot be read.
    async fn hierarchy(&self) -> Option<Hierarchy>;
    /// Saves a screenshot to `save_to`: a PNG, JPEG or WebP, whatever the name says (the
    /// masker recognises which by the bytes, `mask/decode.rs`).
    async fn screenshot(&self, save_to: &str) -> Result<(), Self::ScreenshotError>;
}

pub(crate) struct HubScreen<'a> {
    hub: &'a Hub,
    device: &'a str,
}

impl<'a> HubScreen<'a> {
    pub(crate) fn new(hub: &'a Hub, device: &'a str) -> Self {
        HubScreen { hub, device }
    }
}

impl DeviceScreen for HubScreen<'_> {
    type ScreenshotError = McpError;

    async fn hierarchy(&self) -> Option<Hierarchy> {
        match self.hub.ui().get_hierarchy(self.device).await {
            Ok(h) => Some(h),
            Err(e) => {
                // The masker then omits the screenshot (unless it is blank).
                tracing::debug!(error = %e, "hierarchy unavailable around a screenshot");
                None
            }
        }
    }

    async fn screenshot(&self, save_to: &str) -> Result<(), McpError> {
        self.hub
            .mobile()
            .save_screenshot(self.device, save_to)
            .await
            .map(|_| ())
    }
}

pub(crate) async fn archive(
    screen: &impl DeviceScreen,
    package: &str,
    evidence_dir: &Path,
    attempt: u32,
    masking: &MaskingConfig,
) -> ArchivedShot {
    let picture = PictureName::Screenshot { attempt };
    archive_to(
        screen,
        package,
        evidence_dir,
        &picture.folder(),
        &picture.file_name(),
        masking,
    )
    .await
}

/// [`archive`] into `<evidence>/<folder>/<name>` (a filmstrip frame goes to
/// `filmstrip/attempt-NNN/step-NN.png`): the same capture, masking and omission rules.
pub(crate) async fn archive_to(
    screen: &impl DeviceScreen,
    package: &str,
    evidence_dir: &Path,
    folder_rel: &str,
    name: &str,
    masking: &MaskingConfig,
) -> ArchivedShot {
    let omitted = |why: ShotOmission| ArchivedShot {
        src: None,
        redacted: true,
        omitted_because: Some(why),
    };
    let raw = match RawScreenshot::new() {
        Ok(raw) => raw,
        Err(e) => {
            return omitted(ShotOmission::CaptureFailed {
                detail: format!("no temp file for the screenshot: {e}"),
            })
        }
    };
    let raw_path = raw.path().to_string_lossy().to_string();
    let folder = evidence_dir.join(folder_rel);
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return omitted(ShotOmission::CaptureFailed {
            detail: format!("cannot create {}: {e}", folder.display()),
        });
    }
    let out = folder.join(name);
    let mut take = 1;
    let outcome = loop {
        let before = screen.hierarchy().await;
        if let Err(e) = screen.screenshot(&raw_path).await {
            return omitted(ShotOmission::CaptureFailed {
                detail: format!("screenshot failed: {e}"),
            });
        }
        let after = screen.hierarchy().await;
        let capture = ShotMoment {
            before: before.as_ref(),
            after: after.as_ref(),
            package,
        };
        match mask_screenshot(&raw, &capture, &[], masking, &out) {
            Ok(MaskOutcome::Omitted {
                reason: OmitReason::ScreenChanged,
            }) if take < TAKES => {
                tracing::debug!(take, "screen changed during the screenshot; retaking");
                take += 1;
            }
            other => break other,
        }
    };
    match outcome {
        Ok(MaskOutcome::Archived {
            path,
            masks,
            text_lines,
            nodes,
            ..
        }) => {
            let record = MaskRecord {
                style: masking.style,
                masks,
                level: Some(masking.level),
                text_lines,
                nodes,
            };
            if let Err(e) = write_record(&path, &record) {
                // Only the viewer's overlays are lost: the masks are in the pixels.
                tracing::warn!(error = %e, "mask record not written");
            }
            ArchivedShot {
                src: Some(format!("{folder_rel}/{name}")),
                redacted: false,
                omitted_because: None,
            }
        }
        Ok(MaskOutcome::Omitted { reason }) => omitted(ShotOmission::of(&reason)),
        Err(e) => omitted(ShotOmission::CaptureFailed {
            detail: format!("masking failed: {e}"),
        }),
    }
}

#[cfg(test)]
#[path = "screenshot_tests.rs"]
mod tests;
