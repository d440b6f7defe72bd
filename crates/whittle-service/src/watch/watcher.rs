//! The looks at one device during one replay: a frame loop running beside the replay
//! and a marker the replay moves to the step it is about to act on. The replay's own
//! calls are unchanged; what watching adds is one wait before each action, until a frame
//! of the screen the action is about to act on has been sent (at most [`BEFORE_WAIT`]):
//! a look taken only beside the replay often lands after the tap, when the element to
//! outline is gone (issue 43).

use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::{watch, Notify};
use whittle_core::plan::{element_match, ReplayAction, ReplayPlan, StepWords};

use super::frame::{LiveFrame, LiveImage};
use super::take::{take_frame, NoFrame, Taken};
use crate::config::MaskingConfig;
use crate::evidence::{png_data_url, HubScreen};
use crate::replay::ReplayObserver;

/// The least time between the starts of two looks: a few frames a second at most, so
/// the device serves the replay's own calls first (docs/performance.md, "Live view").
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// The longest an action waits for the frame before it: a look that hangs (a phone's
/// screencap stalls) must not hold up the replay for long.
const BEFORE_WAIT: Duration = Duration::from_secs(3);

/// Where the replay is: launching (no step yet), or at a step, before or after its
/// action. One value, so a look never reads a step with another step's moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    step: Option<u32>,
    acted: bool,
}

pub(crate) struct LiveWatch<'a> {
    send: &'a (dyn Fn(LiveFrame) + Send + Sync),
    screen: HubScreen<'a>,
    device: &'a str,
    attempt: u32,
    plan: &'a ReplayPlan,
    package: &'a str,
    masking: &'a MaskingConfig,
    position: Mutex<Position>,
    /// Rung when the step changes: a look is taken at once, while the element the step
    /// acts on is still on the screen.
    moved: Notify,
    /// The last step whose frame before its action has been sent (or could not be taken):
    /// what the marker waits for before letting the action go.
    shown_before: watch::Sender<Option<u32>>,
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
            position: Mutex::new(Position {
                step: None,
                acted: false,
            }),
            moved: Notify::new(),
            shown_before: watch::Sender::new(None),
        }
    }

    /// The observer the replay moves to each step before its action.
    pub(crate) fn marker(&self) -> StepMarker<'_> {
        StepMarker { watch: self }
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
        let Position { step, acted } = self.position();
        // The frame the step's outline belongs on: its element is there until it acts.
        let before_action = step.filter(|_| !acted);
        let (image, omitted, outline) =
            match take_frame(&self.screen, self.package, self.masking, scratch).await {
                Err(NoFrame::Moving) => return,
                Err(NoFrame::Omitted(why)) => (None, Some(why), None),
                Ok(taken) => {
                    let outline = before_action.and_then(|s| self.outline(&taken, s));
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
            step_words: step.and_then(|s| self.words(s)),
            before_action: before_action.is_some(),
            seq: *seq,
            image,
            omitted,
            outline,
        });
        if before_action.is_some() {
            self.shown_before.send_replace(before_action);
        }
    }

    fn words(&self, step: u32) -> Option<StepWords> {
        let planned = self.plan.steps.iter().find(|p| p.index == step)?;
        Some(planned.words.clone())
    }

    fn position(&self) -> Position {
        *self.position.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn move_to(&self, position: Position) {
        *self.position.lock().unwrap_or_else(|e| e.into_inner()) = position;
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

/// Moves the watch to the step whose action is next, and holds the action until its
/// frame is shown.
pub(crate) struct StepMarker<'a> {
    watch: &'a LiveWatch<'a>,
}

impl ReplayObserver for StepMarker<'_> {
    fn after_launch(&mut self) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }

    async fn before_action(&mut self, step: u32) {
        let mut shown = self.watch.shown_before.subscribe();
        self.watch.move_to(Position {
            step: Some(step),
            acted: false,
        });
        // A permit for the next look, taken at once (a look under way ends first).
        self.watch.moved.notify_one();
        // The frame loop runs beside the replay (`during`), so it makes progress while
        // this waits; past the limit the action goes on without its frame.
        let _ = tokio::time::timeout(BEFORE_WAIT, shown.wait_for(|&s| s == Some(step))).await;
    }

    fn after_action(&mut self, step: u32) -> impl Future<Output = ()> + Send {
        self.watch.move_to(Position {
            step: Some(step),
            acted: true,
        });
        std::future::ready(())
    }
}
