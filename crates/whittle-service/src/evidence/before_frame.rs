//! The frame before the last action. After a crash the app's process is gone, so the
//! screenshot taken after the replay has no hierarchy to mask by and is omitted (privacy
//! fails closed) — exactly on the attempts a developer wants to see. So every replay also
//! takes a masked frame right before its last action, while the app still draws the
//! screen and its hierarchy accounts for every pixel (the way trace viewers show "before
//! the action"). It waits in a staging folder; when the frame after the replay cannot be
//! kept, it becomes the attempt's screenshot (`screenshots/attempt-NNN.png`, masked by the
//! same rules), labelled with its step; otherwise it is dropped. One masked capture more
//! per attempt (docs/performance.md).

use std::path::Path;

use super::filmstrip::{archive_frame, FilmSource};
use super::mask_record::record_path;
use super::screenshot::{ArchivedShot, SCREENSHOTS_DIR};
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

/// Takes the frame before `last_step`'s action of one replay.
pub struct BeforeLastAction<'a> {
    source: FilmSource<'a>,
    attempt: u32,
    last_step: Option<u32>,
    taken: Option<(u32, ArchivedShot)>,
}

impl<'a> BeforeLastAction<'a> {
    /// `last_step` is the candidate's last plan step (`None` for a launch-only replay,
    /// which has no action to come before).
    pub fn new(source: FilmSource<'a>, attempt: u32, last_step: Option<u32>) -> Self {
        BeforeLastAction {
            source,
            attempt,
            last_step,
            taken: None,
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

    fn before_action(&mut self, step: u32) -> impl std::future::Future<Output = ()> + Send {
        async move {
            if self.last_step != Some(step) {
                return;
            }
            let name = self.name();
            let source = &self.source;
            let shot = archive_frame(
                source.hub,
                source.device,
                source.package,
                source.evidence_dir,
                STAGING_DIR,
                &name,
                source.masking,
            )
            .await;
            self.taken = Some((step, shot));
        }
    }

    fn after_action(&mut self, _step: u32) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }
}
