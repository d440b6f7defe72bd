//! The frame before the last action. After a crash the app's process is gone, so the
//! screenshot taken after the replay has no hierarchy to mask by and is omitted (privacy
//! fails closed) — exactly on the attempts a developer wants to see. So every replay also
//! takes a masked frame right before its last action, while the app still draws the
//! screen and its hierarchy accounts for every pixel (the way trace viewers show "before
//! the action"). It waits in a staging folder; when the frame after the replay cannot be
//! kept, it becomes the attempt's screenshot (`screenshots/attempt-NNN.png`, masked by the
//! same rules), labelled with its step; otherwise it is dropped. One masked capture more
//! per attempt (not yet measured in docs/performance.md).

use std::path::Path;

use image::{Rgba, RgbaImage};
use whittle_core::plan::element_match;
use whittle_core::plan::{ReplayAction, ReplayStep, Strategy};

use super::filmstrip::FilmSource;
use super::mask_record::record_path;
use super::screenshot::{ArchivedShot, SCREENSHOTS_DIR};
use crate::atomic::{write_atomic, FileMode};
use crate::replay::ReplayObserver;

/// Where the frame waits until the attempt's screenshot is chosen: inside the evidence
/// session, beside `screenshots/` (whose readers expect only attempt files), and only
/// ever holding masked frames.
const STAGING_DIR: &str = ".before-last-action";

/// The attempt's screenshot, and the step it was taken before when it is the frame
/// before the last action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptShot {
    pub shot: ArchivedShot,
    pub before_step: Option<u32>,
}

/// The outline drawn around the element the last action is about to act on.
const OUTLINE: Rgba<u8> = Rgba([255, 0, 200, 255]);
const OUTLINE_PX: u32 = 4;

/// Takes the frame before the last action of one replay.
pub struct BeforeLastAction<'a> {
    source: FilmSource<'a>,
    attempt: u32,
    last_step: Option<u32>,
    /// The element the last action acts on, outlined in the frame when it is on screen.
    target: Option<Strategy>,
    taken: Option<(u32, ArchivedShot)>,
}

impl<'a> BeforeLastAction<'a> {
    /// `last` is the candidate's last plan step (`None` for a launch-only replay, which
    /// has no action to come before).
    pub fn new(source: FilmSource<'a>, attempt: u32, last: Option<&ReplayStep>) -> Self {
        let target = last.and_then(|step| match &step.action {
            ReplayAction::Tap { strategy }
            | ReplayAction::LongPress { strategy }
            | ReplayAction::InputText { strategy, .. } => Some(strategy.clone()),
            ReplayAction::PressButton { .. } | ReplayAction::Relaunch { .. } => None,
        });
        BeforeLastAction {
            source,
            attempt,
            last_step: last.map(|step| step.index),
            target,
            taken: None,
        }
    }

    /// Outlines the element the last action acts on in the staged frame, found in the
    /// screen's hierarchy by the rules a tap uses. Best effort: a frame without its
    /// outline is still the evidence.
    async fn outline_target(&self, staged: &Path) {
        let Some(target) = &self.target else { return };
        let Ok(hierarchy) = self.source.hub.ui().get_hierarchy(self.source.device).await else {
            return;
        };
        let Some(element) = element_match::find(&hierarchy.elements, std::slice::from_ref(target))
        else {
            return;
        };
        let outlined = image::open(staged)
            .map_err(|e| e.to_string())
            .and_then(|img| {
                let mut img = img.to_rgba8();
                outline(&mut img, element.bounds);
                let mut png = Vec::new();
                img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                    .map_err(|e| e.to_string())?;
                write_atomic(staged, &png, FileMode::Private).map_err(|e| e.to_string())
            });
        if let Err(e) = outlined {
            tracing::debug!(error = %e, "the last action's element was not outlined");
        }
    }

    fn name(&self) -> String {
        format!("attempt-{:03}.png", self.attempt)
    }

    /// The attempt's screenshot given the frame taken after the replay: that frame when it
    /// was kept (the later picture, and the frame before is dropped), else the frame
    /// before the last action when there is one. `after` stays as it is (with its
    /// omission reason) when neither could be kept.
    pub fn choose(self, after: ArchivedShot) -> AttemptShot {
        let evidence_dir = self.source.evidence_dir;
        let name = self.name();
        let staged = evidence_dir.join(STAGING_DIR).join(&name);
        let kept = AttemptShot {
            shot: after.clone(),
            before_step: None,
        };
        let Some((step, before)) = self.taken.filter(|(_, s)| s.src.is_some()) else {
            return kept;
        };
        if after.src.is_some() {
            discard(&staged);
            return kept;
        }
        let rel = format!("{SCREENSHOTS_DIR}/{name}");
        let target = evidence_dir.join(&rel);
        let moved = std::fs::rename(&staged, &target).and_then(|()| {
            // The viewer's overlays; the masks themselves are in the pixels.
            let record = record_path(&staged);
            match std::fs::rename(&record, record_path(&target)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        });
        if let Err(e) = moved {
            tracing::warn!(error = %e, "the frame before the last action was not kept");
            discard(&staged);
            return kept;
        }
        AttemptShot {
            shot: ArchivedShot {
                src: Some(rel),
                redacted: before.redacted,
                omitted_because: None,
            },
            before_step: Some(step),
        }
    }

    /// Drops a frame no attempt will show (a cancelled replay).
    pub fn discard(self) {
        discard(&self.source.evidence_dir.join(STAGING_DIR).join(self.name()));
    }
}

fn discard(staged: &Path) {
    let _ = std::fs::remove_file(staged);
    let _ = std::fs::remove_file(record_path(staged));
}

impl ReplayObserver for BeforeLastAction<'_> {
    fn after_launch(&mut self) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }

    async fn before_action(&mut self, step: u32) {
        if self.last_step != Some(step) {
            return;
        }
        let name = self.name();
        let source = &self.source;
        let shot = source.archive(STAGING_DIR, &name).await;
        if shot.src.is_some() {
            let staged = source.evidence_dir.join(STAGING_DIR).join(&name);
            self.outline_target(&staged).await;
        }
        self.taken = Some((step, shot));
    }

    fn after_action(&mut self, _step: u32) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }
}

/// A frame of `OUTLINE_PX` around `bounds` (`[left, top, right, bottom]`), clipped to the
/// image; drawn outside the element where there is room, so its own pixels (and any
/// mask on them) stay as they are.
fn outline(img: &mut RgbaImage, bounds: [i32; 4]) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let [left, top, right, bottom] = bounds.map(i64::from);
    let px = i64::from(OUTLINE_PX);
    let (x0, y0, x1, y1) = (left - px, top - px, right + px, bottom + px);
    for y in y0.max(0)..y1.min(h) {
        for x in x0.max(0)..x1.min(w) {
            let inside = x >= left && x < right && y >= top && y < bottom;
            if !inside {
                img.put_pixel(x as u32, y as u32, OUTLINE);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_surrounds_the_element_and_leaves_it_as_it_was() {
        let mut img = RgbaImage::from_pixel(100, 100, Rgba([0, 0, 0, 255]));
        outline(&mut img, [20, 30, 60, 50]);
        assert_eq!(
            *img.get_pixel(40, 40),
            Rgba([0, 0, 0, 255]),
            "inside untouched"
        );
        assert_eq!(*img.get_pixel(17, 40), OUTLINE, "left edge");
        assert_eq!(*img.get_pixel(62, 52), OUTLINE, "bottom-right corner");
        assert_eq!(
            *img.get_pixel(10, 40),
            Rgba([0, 0, 0, 255]),
            "beyond the outline"
        );
        // An element at the edge of the screen: the outline is clipped, not a panic.
        outline(&mut img, [-10, 90, 120, 130]);
        assert_eq!(*img.get_pixel(0, 88), OUTLINE);
    }
}
