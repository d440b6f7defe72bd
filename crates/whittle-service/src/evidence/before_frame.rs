//! The frame before the last action. After a crash the app's process is gone, so the
//! screenshot taken after the replay has no hierarchy to mask by and is omitted (privacy
//! fails closed) — exactly on the attempts a developer wants to see. So every replay also
//! takes the screen right before its last action, while the app still draws it and its
//! hierarchy accounts for every pixel (the way trace viewers show "before the action").
//! It is held unmasked in a private temp file (`TakenScreen`) until the attempt's
//! screenshot is chosen: when the frame after the replay cannot be kept, it is masked by
//! the same rules into `screenshots/attempt-NNN.png`, with the element the action was
//! about to act on outlined in the same pass (`mask/outline.rs`), and labelled with its
//! step; otherwise it is dropped unmasked and its temp file deleted. Masking only the
//! kept ones took the run's own work per replay from 22.3 to 11.3 ms
//! (docs/performance.md, "Where a replay's time goes").

use whittle_core::plan::element_match;
use whittle_core::plan::{ReplayAction, ReplayStep, Strategy};

use super::filmstrip::FilmSource;
use super::screenshot::{
    archive_taken, take_screen, ArchivedShot, HubScreen, TakenScreen, SCREENSHOTS_DIR,
};
use crate::replay::ReplayObserver;

/// The attempt's screenshot, and the step it was taken before when it is the frame
/// before the last action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptShot {
    pub shot: ArchivedShot,
    pub before_step: Option<u32>,
}

/// Takes the frame before the last action of one replay.
pub struct BeforeLastAction<'a> {
    source: FilmSource<'a>,
    attempt: u32,
    last_step: Option<u32>,
    /// The element the last action acts on, outlined in the frame when it is on screen.
    target: Option<Strategy>,
    /// The screen before the last action, not masked yet, and that action's step.
    taken: Option<(u32, TakenScreen)>,
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

    /// Where the element the last action acts on is in the taken screen, found in the
    /// hierarchy read with its pixels by the rules a tap uses (none when it is not on
    /// screen: the frame is still the evidence).
    fn target_bounds(&self, taken: &TakenScreen) -> Option<[i32; 4]> {
        let (target, hierarchy) = (self.target.as_ref()?, taken.hierarchy()?);
        element_match::find(&hierarchy.elements, std::slice::from_ref(target))
            .map(|element| element.bounds)
    }

    /// The attempt's screenshot given the frame taken after the replay: that frame when it
    /// was kept (the later picture; the frame before is dropped unmasked), else the frame
    /// before the last action, masked now, when there is one and it can be masked.
    /// `after` stays as it is (with its omission reason) when neither could be kept.
    pub fn choose(self, after: ArchivedShot) -> AttemptShot {
        let kept = AttemptShot {
            shot: after.clone(),
            before_step: None,
        };
        if after.src.is_some() {
            return kept;
        }
        let Some((step, taken)) = &self.taken else {
            return kept;
        };
        let span = tracing::debug_span!("before_last_action_kept", attempt = self.attempt);
        let _entered = span.enter();
        let name = format!("attempt-{:03}.png", self.attempt);
        let source = &self.source;
        let before = archive_taken(
            taken,
            source.package,
            source.evidence_dir,
            (SCREENSHOTS_DIR, &name),
            source.masking,
            self.target_bounds(taken),
        );
        if before.src.is_none() {
            return kept;
        }
        AttemptShot {
            shot: before,
            before_step: Some(*step),
        }
    }
}

impl ReplayObserver for BeforeLastAction<'_> {
    fn after_launch(&mut self) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }

    async fn before_action(&mut self, step: u32) {
        if self.last_step != Some(step) {
            return;
        }
        let screen = HubScreen::new(self.source.hub, self.source.device);
        let take = take_screen(&screen);
        let taken = tracing::Instrument::instrument(
            take,
            tracing::debug_span!("before_last_action", attempt = self.attempt),
        )
        .await;
        // A screen that could not be taken leaves the frame after the replay as it is.
        self.taken = taken.ok().map(|taken| (step, taken));
    }

    fn after_action(&mut self, _step: u32) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }
}
