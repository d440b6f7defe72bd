use std::path::Path;

use tracing::Instrument;
use whittle_contract::ui::Hierarchy;

use super::mask_record::{write_record, MaskRecord};
use super::picture::PictureName;
use crate::client::{Hub, McpError};
use crate::config::MaskingConfig;
use crate::mask::ShotOmission;
use crate::mask::{mask_screenshot_outlined, same_screen, MaskOutcome, RawScreenshot, ShotMoment};

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
    match take_screen(screen).await {
        Ok(taken) => archive_taken(
            &taken,
            package,
            evidence_dir,
            (folder_rel, name),
            masking,
            None,
        ),
        Err(why) => omitted(why),
    }
}

/// A screen taken and not masked yet: the raw screenshot (a private temp file, deleted
/// when this is dropped) between two readings of the hierarchy. The frame before a
/// replay's last action is held so and masked only when it is kept (`before_frame.rs`):
/// most are dropped, and masking was most of their cost (docs/performance.md).
pub(crate) struct TakenScreen {
    raw: RawScreenshot,
    before: Option<Hierarchy>,
    after: Option<Hierarchy>,
}

impl TakenScreen {
    /// The reading taken right after the pixels (the one masks are placed by).
    pub(crate) fn hierarchy(&self) -> Option<&Hierarchy> {
        self.after.as_ref()
    }
}

/// Reads the hierarchy, takes a screenshot into a private temp file and reads the
/// hierarchy again; when the two readings differ the screen was moving, and it is taken
/// once more. Whether the last take is steady enough is the masker's to say.
pub(crate) async fn take_screen(screen: &impl DeviceScreen) -> Result<TakenScreen, ShotOmission> {
    let raw = RawScreenshot::new().map_err(|e| ShotOmission::CaptureFailed {
        detail: format!("no temp file for the screenshot: {e}"),
    })?;
    let raw_path = raw.path().to_string_lossy().to_string();
    let mut take = 1;
    loop {
        let before = screen.hierarchy().await;
        if let Err(e) = screen.screenshot(&raw_path).await {
            return Err(ShotOmission::CaptureFailed {
                detail: format!("screenshot failed: {e}"),
            });
        }
        let after = screen.hierarchy().await;
        let moving = matches!((&before, &after), (Some(b), Some(a)) if !same_screen(b, a));
        if !moving || take >= TAKES {
            return Ok(TakenScreen { raw, before, after });
        }
        tracing::debug!(take, "screen changed during the screenshot; retaking");
        take += 1;
    }
}

/// Masks a taken screen into `<evidence>/<folder>/<name>` (with the element at `outline`
/// outlined, when given) and writes its mask record beside it; what cannot be masked is
/// omitted, with why.
pub(crate) fn archive_taken(
    taken: &TakenScreen,
    package: &str,
    evidence_dir: &Path,
    (folder_rel, name): (&str, &str),
    masking: &MaskingConfig,
    outline: Option<[i32; 4]>,
) -> ArchivedShot {
    let folder = evidence_dir.join(folder_rel);
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return omitted(ShotOmission::CaptureFailed {
            detail: format!("cannot create {}: {e}", folder.display()),
        });
    }
    let capture = ShotMoment {
        before: taken.before.as_ref(),
        after: taken.after.as_ref(),
        package,
    };
    match mask_screenshot_outlined(&taken.raw, &capture, masking, &folder.join(name), outline) {
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

fn omitted(why: ShotOmission) -> ArchivedShot {
    ArchivedShot {
        src: None,
        redacted: true,
        omitted_because: Some(why),
    }
}

#[cfg(test)]
#[path = "screenshot_tests.rs"]
mod tests;
