//! The looks at one device during one replay: a frame loop running beside the replay
//! (never inside it: the replay's own calls and waits are unchanged) and a marker the
//! replay moves to the step it is about to act on.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use whittle_core::plan::{element_match, ReplayAction, ReplayPlan};

use super::frame::{LiveFrame, LiveImage};
use super::take::{take_frame, NoFrame, Taken};
use crate::config::MaskingConfig;
use crate::evidence::{png_data_url, HubScreen};
use crate::replay::ReplayObserver;

/// The least time between the starts of two looks: a few frames a second at most, so
/// the device serves the replay's own calls first (docs/performance.md, "Live view").
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// No step yet: the app is launching.
const NO_STEP: u32 = u32::MAX;

pub(crate) struct LiveWatch<'a> {
    send: &'a (dyn Fn(LiveFrame) + Send + Sync),
    screen: HubScreen<'a>,
    device: &'a str,
    attempt: u32,
    plan: &'a ReplayPlan,
    package: &'a str,
    masking: &'a MaskingConfig,
    step: AtomicU32,
    /// Rung when the step changes: a look is taken at once, while the element the step
    /// acts on is still on the screen (a device takes a moment to carry out a tap).
    moved: Notify,
}

impl<'a> LiveWatch<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        send: &'a (dyn Fn(LiveFrame) + Send + Sync),
        screen: HubScreen<'a>,
        device: &'a str,
        attempt: u32,
        plan: &'a ReplayPlan,
        package: &'a str,
        masking: &'a MaskingConfig,
    ) -> Self {
        LiveWatch {
            send,
            screen,
            device,
            attempt,
            plan,
            package,
            masking,
            step: AtomicU32::new(NO_STEP),
            moved: Notify::new(),
        }
    }

    /// The observer the replay moves to each step before its action.
    pub(crate) fn marker(&self) -> StepMarker<'_> {
        StepMarker {
            step: &self.step,
            moved: &self.moved,
        }
    }

    /// Awaits `work` (the replay) while frames are taken and sent; looking stops as soon
    /// as it ends (a frame half taken is dropped, its raw file deleted).
    pub(crate) async fn during<T>(&self, work: impl Future<Output = T>) -> T {
        let scratch = match tempfile::Builder::new().prefix(".whittle-live-").tempdir() {
            Ok(dir) => dir,
            Err(e) => {
                tracing::warn!(error = %e, "no scratch folder for live frames; not watching");
                return work.await;
            }
        };
        let mut work = std::pin::pin!(work);
        let looks = async {
            let mut seq = 0;
            loop {
                let started = Instant::now();
                self.look(scratch.path(), &mut seq).await;
                tokio::select! {
                    () = tokio::time::sleep_until((started + LOOK_EVERY).into()) => {}
                    () = self.moved.notified() => {}
                }
            }
        };
        tokio::select! {
            biased;
            done = &mut work => done,
            () = looks => work.await,
        }
    }

    async fn look(&self, scratch: &std::path::Path, seq: &mut u32) {
        let step = Some(self.step.load(Ordering::Relaxed)).filter(|&s| s != NO_STEP);
        let (image, omitted, outline) =
            match take_frame(&self.screen, self.package, self.masking, scratch).await {
                Err(NoFrame::Moving) => return,
                Err(NoFrame::Omitted(why)) => (None, Some(why), None),
                Ok(taken) => {
                    let outline = step.and_then(|s| self.outline(&taken, s));
                    let image = LiveImage {
                        data_url: png_data_url(&taken.png),
                        width: taken.width,
                        height: taken.height,
                    };
                    (Some(image), None, outline)
                }
            };
        *seq += 1;
        (self.send)(LiveFrame {
            device: self.device.to_owned(),
            attempt: self.attempt,
            step,
            seq: *seq,
            image,
            omitted,
            outline,
        });
    }

    /// Where the element `step` acts on is on the frame, found by the replay's own
    /// matcher among the frame's (masked) nodes.
    fn outline(&self, taken: &Taken, step: u32) -> Option<[i32; 4]> {
        let strategy = match &self.plan.step(step)?.action {
            ReplayAction::Tap { strategy }
            | ReplayAction::LongPress { strategy }
            | ReplayAction::InputText { strategy, .. } => strategy,
            ReplayAction::PressButton { .. } | ReplayAction::Relaunch { .. } => return None,
        };
        let node = element_match::find(&taken.nodes, std::slice::from_ref(strategy))?;
        Some(
            node.bounds
                .map(|v| (f64::from(v) / taken.shrink).round() as i32),
        )
    }
}

/// Moves the watch to the step whose action is next.
pub(crate) struct StepMarker<'a> {
    step: &'a AtomicU32,
    moved: &'a Notify,
}

impl ReplayObserver for StepMarker<'_> {
    fn after_launch(&mut self) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }

    fn before_action(&mut self, step: u32) -> impl Future<Output = ()> + Send {
        self.step.store(step, Ordering::Relaxed);
        // Stored for a look already under way, and a permit for the next one.
        self.moved.notify_one();
        std::future::ready(())
    }

    fn after_action(&mut self, _step: u32) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }
}
