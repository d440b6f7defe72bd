//! *Minimize all*: a queue of crash groups ([`super::queue_plan`] builds it) run one
//! after another, each through the same [`run`] as a single run
//! (`RunJob::New(RunSpec { session, crash: Some(crash_id), .. })`), every event handed
//! to the caller tagged with its entry's id. [`Queue`] is the one place its state lives;
//! a front end calls its controls from anywhere and renders [`Queue::view`].
//!
//! - **Pause**: the running item finishes; the next one does not start until
//!   [`Queue::resume`].
//! - **Reorder**: only waiting entries move ([`Queue::move_entry`]); the next item to
//!   run is always the first waiting entry of the list.
//! - **Cancel one**: a waiting entry becomes [`QueueState::Cancelled`]; the running one
//!   is asked to stop through its run's cancel token, and ends as its run ends (a
//!   cancelled run still finalizes its evidence: [`QueueState::Finished`] with the run's
//!   own `cancelled` end).
//! - **Cancel all**: every waiting entry is cancelled and the running one is asked to
//!   stop; the queue then ends.
//! - A refusal or failure of one item ([`QueueState::Failed`]) does not stop the queue.
//!
//! **Side by side.** Given lanes ([`Queue::side_by_side`], from
//! [`super::queue_lanes`]: one per online device), up to one item runs on each lane at
//! once, pinned to its device (`RunSpec::device`, a pool of one), and only on a lane
//! whose device has the item's app; the first waiting entry still goes first, and waits
//! for a lane that fits it. Without lanes items run one at a time and each run chooses
//! its devices as a single run does (its own pool: `RunSpec::devices`).
//!
//! **Unfinished runs** (`queue_resume.rs`). An item whose crash group has a run that can
//! go on, started with the options the queue runs with, resumes it
//! (`RunJob::Resume`: its journaled attempts are not replayed); otherwise, or when that
//! resume is refused, it runs afresh. Either way the group's other unfinished runs are
//! discarded as the item starts.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use futures_util::stream::{FuturesUnordered, StreamExt};
use serde::Serialize;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::queue_lanes::QueueLane;
use super::queue_plan::{QueuePlan, QueueSkipReason};
use super::queue_resume::{discard_left_behind, ResumableRun};
use super::refusal::RunRefusal;
use super::run_job::{run, RunFailure, RunJob};
use super::RunHint;
use crate::config::Config;
use crate::result::RunSummary;
use crate::run::{ResumeError, ResumeOptions, RunError, RunEvent, RunOutcome, RunSpec, Watched};
use crate::watch::LiveFrame;

/// The queue as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QueueView {
    pub entries: Vec<QueueEntry>,
    /// No further item starts until the queue is resumed.
    pub paused: bool,
    /// The queue is being worked through: started and not yet ended (also while
    /// paused). False before [`Queue::run`] and once it returned.
    pub running: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QueueEntry {
    /// Unique within the queue, from 1 in the queue's first order.
    pub id: u32,
    pub session: String,
    /// The crash group; `None` only for a session that cannot be read (skipped as
    /// [`QueueSkipReason::SessionUnreadable`], listed after the crash groups).
    pub crash_id: Option<String>,
    pub label: Option<String>,
    pub state: QueueState,
    /// What to try next for this crash group, once its run ended without a result a
    /// change of options may give (`api::run_hint`, decided where its run ended).
    pub hint: Option<RunHint>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum QueueState {
    Waiting,
    /// Its run is going on: the evidence session and the device it replays on once the
    /// run started, the attempts finished so far, and the run's budget (0 until it
    /// started).
    Running {
        evidence_session: Option<String>,
        device: Option<String>,
        attempts: u32,
        max_replays: u32,
    },
    /// The run ended with evidence: the run's own summary (a cancelled or failed run
    /// included, `summary.end` says which).
    Finished {
        summary: RunSummary,
        /// How long its run took, from its start to its end, in milliseconds.
        took_ms: u32,
    },
    /// The run was refused, or failed before its evidence existed.
    Failed {
        refusal: RunRefusal,
    },
    /// Cancelled before it ran (or before its run's evidence existed).
    Cancelled,
    Skipped {
        reason: QueueSkipReason,
    },
}

impl QueueState {
    /// Ended, one way or another: it will not run (again).
    pub fn is_over(&self) -> bool {
        !matches!(self, QueueState::Waiting | QueueState::Running { .. })
    }
}

/// What [`Queue::run`] hands its caller, in order.
#[derive(Debug)]
pub enum QueueEvent {
    /// The queue changed (an item started, progressed or ended; a control was used).
    Changed(QueueView),
    /// One event of entry `entry`'s run.
    Run { entry: u32, event: Box<RunEvent> },
    /// A live look at a device during entry `entry`'s run, when the queue is watched
    /// ([`Queue::watch_devices`]).
    Frame { entry: u32, frame: Box<LiveFrame> },
    /// Entry `entry`'s run returned: what it produced (approval and export work on the
    /// outcome, as for a single run). Sent before the `Changed` that shows its state.
    Ended {
        entry: u32,
        result: Box<Result<RunOutcome, RunFailure>>,
    },
}

/// A queue of crash groups to minimize (see the module documentation).
pub struct Queue {
    inner: Mutex<Inner>,
    /// Wakes the driver: a control was used (resume, cancel, a change to show).
    poke: Notify,
    /// Cancels the whole queue; each item's run token is a child of it.
    all: CancellationToken,
    /// Whether the caller shows the devices: then each run also sends live frames
    /// (`crate::watch`).
    watching: AtomicBool,
}

struct Inner {
    entries: Vec<Slot>,
    /// The devices items run on side by side; empty: one item at a time.
    lanes: Vec<QueueLane>,
    paused: bool,
    running: bool,
    started: bool,
}

struct Slot {
    entry: QueueEntry,
    package: Option<String>,
    /// The running item's cancel token.
    cancel: Option<CancellationToken>,
    /// The group's run to go on with, and its other unfinished runs (`queue_resume.rs`).
    resume: Option<ResumableRun>,
    left_behind: Vec<String>,
    /// When its run started (what "took" is counted from).
    started: Option<Instant>,
}

/// A lane free to take an item: `None` is the one lane of a queue not side by side.
type FreeLane = Option<QueueLane>;

/// What the driver does next.
enum Next {
    /// Run entry `.0` as `.1` on the free lane at index `.3`.
    Run(u32, Box<ItemJob>, CancellationToken, usize),
    Wait,
    Done,
}

/// How an item runs: the resume of its group's unfinished run when one fits, else (or
/// when the resume is refused) a fresh run; `discard` is what it leaves behind.
struct ItemJob {
    fresh: RunSpec,
    resume: Option<ResumeOptions>,
    discard: Vec<String>,
}

/// An item's run as the driver awaits it: its entry, the lane it holds, its result.
type ItemRun<'a> =
    Pin<Box<dyn Future<Output = (u32, FreeLane, Result<RunOutcome, RunFailure>)> + Send + 'a>>;

impl Queue {
    /// A queue of `plan`'s items, skipped ones already in their end state.
    pub fn new(plan: &QueuePlan) -> Queue {
        Queue::with_cancel(plan, CancellationToken::new())
    }

    /// As [`Queue::new`], cancelled as a whole when `all` is (e.g. by a front end's
    /// quit).
    pub fn with_cancel(plan: &QueuePlan, all: CancellationToken) -> Queue {
        let entries = plan
            .items
            .iter()
            .zip(1u32..)
            .map(|(item, id)| Slot {
                entry: QueueEntry {
                    id,
                    session: item.session.clone(),
                    crash_id: Some(item.crash_id.clone()),
                    label: item.label.clone(),
                    state: match &item.skip {
                        Some(reason) => QueueState::Skipped {
                            reason: reason.clone(),
                        },
                        None => QueueState::Waiting,
                    },
                    hint: None,
                },
                package: item.package.clone(),
                cancel: None,
                resume: item.resume.clone(),
                left_behind: item.left_behind.clone(),
                started: None,
            })
            // Unreadable sessions after the crash groups: the groups' ids stay the
            // plan's order from 1, which front ends rely on.
            .chain(
                plan.unreadable
                    .iter()
                    .zip(
                        u32::try_from(plan.items.len())
                            .unwrap_or(u32::MAX)
                            .saturating_add(1)..,
                    )
                    .map(|(session, id)| Slot {
                        entry: QueueEntry {
                            id,
                            session: session.session.clone(),
                            crash_id: None,
                            label: None,
                            state: QueueState::Skipped {
                                reason: session.skip_reason(),
                            },
                            hint: None,
                        },
                        package: None,
                        cancel: None,
                        resume: None,
                        left_behind: Vec::new(),
                        started: None,
                    }),
            )
            .collect();
        Queue {
            inner: Mutex::new(Inner {
                entries,
                lanes: Vec::new(),
                paused: false,
                running: false,
                started: false,
            }),
            poke: Notify::new(),
            all,
            watching: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// From now on each item's run also sends live frames of its devices
    /// ([`QueueEvent::Frame`]): for a caller that shows them (the window).
    pub fn watch_devices(&self) {
        self.watching.store(true, Ordering::Relaxed);
    }

    /// Runs items side by side on `lanes` (see the module documentation); fewer than
    /// two lanes: one item at a time. Takes effect when [`Queue::run`] starts.
    pub fn side_by_side(&self, lanes: Vec<QueueLane>) {
        self.lock().lanes = if lanes.len() < 2 { Vec::new() } else { lanes };
    }

    pub fn view(&self) -> QueueView {
        let inner = self.lock();
        QueueView {
            entries: inner.entries.iter().map(|s| s.entry.clone()).collect(),
            paused: inner.paused,
            running: inner.running,
        }
    }

    /// The running item finishes; the next does not start until [`Queue::resume`].
    pub fn pause(&self) {
        self.lock().paused = true;
        self.poke.notify_one();
    }

    pub fn resume(&self) {
        self.lock().paused = false;
        self.poke.notify_one();
    }

    /// Moves waiting entry `id` to `to_index` in the list (clamped to its end); false
    /// when `id` is not a waiting entry.
    pub fn move_entry(&self, id: u32, to_index: usize) -> bool {
        let mut inner = self.lock();
        let Some(from) = inner
            .entries
            .iter()
            .position(|s| s.entry.id == id && s.entry.state == QueueState::Waiting)
        else {
            return false;
        };
        let slot = inner.entries.remove(from);
        let to = to_index.min(inner.entries.len());
        inner.entries.insert(to, slot);
        drop(inner);
        self.poke.notify_one();
        true
    }

    /// Cancels entry `id`: a waiting one is cancelled now, the running one is asked to
    /// stop. False when it is neither.
    pub fn cancel_entry(&self, id: u32) -> bool {
        let mut inner = self.lock();
        let Some(slot) = inner.entries.iter_mut().find(|s| s.entry.id == id) else {
            return false;
        };
        let cancelled = match (&slot.entry.state, &slot.cancel) {
            (QueueState::Waiting, _) => {
                slot.entry.state = QueueState::Cancelled;
                true
            }
            (QueueState::Running { .. }, Some(cancel)) => {
                cancel.cancel();
                true
            }
            _ => false,
        };
        drop(inner);
        if cancelled {
            self.poke.notify_one();
        }
        cancelled
    }

    /// Cancels every waiting entry and asks the running one to stop; the queue ends.
    pub fn cancel_all(&self) {
        self.all.cancel();
        cancel_waiting(&mut self.lock());
        self.poke.notify_one();
    }

    /// Works through the queue on the servers of `config`, each item's run made from
    /// `template` with the item's session and crash (its other fields — budget,
    /// devices, strategy, … — are every item's; a lane pins the device). Returns once no
    /// entry is waiting or running (or the queue was cancelled and its runs ended); a
    /// second call returns at once.
    pub async fn run(
        &self,
        config: &Config,
        template: &RunSpec,
        on_event: impl Fn(QueueEvent) + Send + Sync,
    ) {
        let lanes = {
            let mut inner = self.lock();
            if inner.started {
                return;
            }
            inner.started = true;
            inner.running = true;
            inner.lanes.clone()
        };
        let on_event = &on_event;
        on_event(QueueEvent::Changed(self.view()));
        let mut free: Vec<FreeLane> = if lanes.is_empty() {
            vec![None]
        } else {
            lanes.into_iter().map(Some).collect()
        };
        let mut items: FuturesUnordered<ItemRun<'_>> = FuturesUnordered::new();
        loop {
            let over = loop {
                match self.next(template, &free) {
                    Next::Run(entry, job, cancel, at) => {
                        let lane = free.remove(at);
                        on_event(QueueEvent::Changed(self.view()));
                        items.push(Box::pin(async move {
                            let result = self.run_item(config, entry, job, cancel, on_event).await;
                            (entry, lane, result)
                        }));
                    }
                    Next::Wait => break false,
                    Next::Done => break true,
                }
            };
            if over && items.is_empty() {
                break;
            }
            tokio::select! {
                Some((entry, lane, result)) = items.next() => {
                    self.end_item(entry, &result);
                    on_event(QueueEvent::Ended {
                        entry,
                        result: Box::new(result),
                    });
                    on_event(QueueEvent::Changed(self.view()));
                    free.push(lane);
                }
                // A control was used: show it, then see whether an item may start.
                () = self.poke.notified() => on_event(QueueEvent::Changed(self.view())),
                () = self.all.cancelled(), if !self.all.is_cancelled() => {}
            }
        }
        self.lock().running = false;
        on_event(QueueEvent::Changed(self.view()));
    }

    /// Starts the first waiting entry on a free lane that fits it, unless the queue is
    /// paused or over, or no free lane fits it yet.
    fn next(&self, template: &RunSpec, free: &[FreeLane]) -> Next {
        let mut inner = self.lock();
        if self.all.is_cancelled() {
            cancel_waiting(&mut inner);
            return Next::Done;
        }
        let paused = inner.paused;
        let Some(at) = inner
            .entries
            .iter()
            .position(|s| s.entry.state == QueueState::Waiting)
        else {
            return Next::Done;
        };
        if paused {
            return Next::Wait;
        }
        let package = inner.entries[at].package.as_deref();
        // An app no device has: any lane, and the run says so as a single run would.
        let fits_somewhere = inner.lanes.iter().any(|l| l.fits(package));
        let Some(lane_at) = free.iter().position(|lane| match lane {
            None => true,
            Some(lane) => lane.fits(package) || !fits_somewhere,
        }) else {
            return Next::Wait;
        };
        let device = free[lane_at].as_ref().map(|l| l.device.clone());
        let cancel = self.all.child_token();
        let slot = &mut inner.entries[at];
        slot.cancel = Some(cancel.clone());
        slot.started = Some(Instant::now());
        slot.entry.state = QueueState::Running {
            evidence_session: None,
            device: None,
            attempts: 0,
            max_replays: 0,
        };
        let fresh = RunSpec {
            session: slot.entry.session.clone(),
            crash: slot.entry.crash_id.clone(),
            device: device.or_else(|| template.device.clone()),
            ..template.clone()
        };
        let mut discard = slot.left_behind.clone();
        let resume = match &slot.resume {
            Some(run) if run.fits(&fresh) => Some(run.options(&fresh)),
            // Started with other options: this run replaces it.
            Some(run) => {
                discard.push(run.evidence_session.clone());
                None
            }
            None => None,
        };
        let job = Box::new(ItemJob {
            fresh,
            resume,
            discard,
        });
        Next::Run(slot.entry.id, job, cancel, lane_at)
    }

    /// Entry `entry`'s run (see [`ItemJob`]): the runs it leaves behind discarded first,
    /// then its resume, or its fresh run.
    async fn run_item(
        &self,
        config: &Config,
        entry: u32,
        job: Box<ItemJob>,
        cancel: CancellationToken,
        on_event: &(impl Fn(QueueEvent) + Send + Sync),
    ) -> Result<RunOutcome, RunFailure> {
        let ItemJob {
            fresh,
            resume,
            discard,
        } = *job;
        discard_left_behind(&config.workspace, &discard);
        if let Some(options) = resume {
            let evidence = options.evidence_session.clone();
            let resumed = self
                .run_job(
                    config,
                    entry,
                    RunJob::Resume(options),
                    cancel.clone(),
                    on_event,
                )
                .await;
            match resumed {
                // Refused before it went on (the session or the app changed, its journal
                // is damaged, ...): the group runs afresh and the old run is ended, so
                // its resume is never offered over the new result.
                Err(RunFailure::Run(RunError::Resume(refusal))) if runs_afresh(&refusal) => {
                    tracing::warn!(%evidence, error = %refusal, "resume refused: the crash group runs afresh");
                    discard_left_behind(&config.workspace, &[evidence]);
                }
                other => return other,
            }
        }
        self.run_job(config, entry, RunJob::New(fresh), cancel, on_event)
            .await
    }

    /// One run of entry `entry`, its events forwarded (and its progress kept) as they
    /// come.
    async fn run_job(
        &self,
        config: &Config,
        entry: u32,
        job: RunJob,
        cancel: CancellationToken,
        on_event: &(impl Fn(QueueEvent) + Send + Sync),
    ) -> Result<RunOutcome, RunFailure> {
        let on_run_event = |event: RunEvent| {
            let changed = self.progress(entry, &event);
            on_event(QueueEvent::Run {
                entry,
                event: Box::new(event),
            });
            if changed {
                on_event(QueueEvent::Changed(self.view()));
            }
        };
        if self.watching.load(Ordering::Relaxed) {
            let frames = |frame: LiveFrame| {
                on_event(QueueEvent::Frame {
                    entry,
                    frame: Box::new(frame),
                })
            };
            let events = on_run_event;
            run(config, job, Watched { events, frames }, cancel).await
        } else {
            run(config, job, on_run_event, cancel).await
        }
    }

    /// Keeps a running entry's progress; true when its view changed.
    fn progress(&self, entry: u32, event: &RunEvent) -> bool {
        let mut inner = self.lock();
        let Some(QueueState::Running {
            evidence_session,
            device,
            attempts,
            max_replays,
        }) = inner
            .entries
            .iter_mut()
            .find(|s| s.entry.id == entry)
            .map(|s| &mut s.entry.state)
        else {
            return false;
        };
        match event {
            RunEvent::Started {
                evidence_session: started,
                max_replays: budget,
                device: primary,
                ..
            } => {
                *evidence_session = Some(started.clone());
                *device = Some(primary.clone());
                *max_replays = *budget;
                true
            }
            RunEvent::AttemptFinished(_) => {
                *attempts += 1;
                true
            }
            _ => false,
        }
    }

    fn end_item(&self, entry: u32, result: &Result<RunOutcome, RunFailure>) {
        let mut inner = self.lock();
        let Some(slot) = inner.entries.iter_mut().find(|s| s.entry.id == entry) else {
            return;
        };
        slot.cancel = None;
        slot.entry.hint = result.as_ref().ok().and_then(|outcome| outcome.hint);
        slot.entry.state = match result {
            Ok(outcome) => QueueState::Finished {
                summary: outcome.summary.clone(),
                took_ms: slot.started.map_or(0, |started| {
                    u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX)
                }),
            },
            Err(failure) => match failure.refusal() {
                // Cancelled before its evidence existed: nothing ran.
                RunRefusal::Cancelled => QueueState::Cancelled,
                refusal => QueueState::Failed { refusal },
            },
        };
    }
}

/// A refused resume after which the item runs afresh: every refusal but a live process
/// holding the run (it goes on elsewhere; a second run of the group would only compete).
fn runs_afresh(refusal: &ResumeError) -> bool {
    !matches!(refusal, ResumeError::Lock(_))
}

fn cancel_waiting(inner: &mut Inner) {
    for slot in &mut inner.entries {
        if slot.entry.state == QueueState::Waiting {
            slot.entry.state = QueueState::Cancelled;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::queue_plan::QueueItem;
    use super::*;

    /// Crash group c1 of session `s{i}`, to run.
    fn item(i: usize) -> QueueItem {
        QueueItem {
            session: format!("s{i}"),
            crash_id: "c1".into(),
            label: None,
            package: None,
            skip: None,
            resume: None,
            left_behind: Vec::new(),
        }
    }

    fn queue(n: usize) -> Queue {
        let items = (0..n).map(item).collect();
        Queue::new(&QueuePlan {
            items,
            unreadable: Vec::new(),
        })
    }

    fn ids(q: &Queue) -> Vec<u32> {
        q.view().entries.iter().map(|e| e.id).collect()
    }

    #[test]
    fn waiting_entries_move_and_the_next_is_the_first_waiting() {
        let q = queue(3);
        assert!(q.move_entry(3, 0));
        assert_eq!(ids(&q), [3, 1, 2]);
        assert!(q.move_entry(3, 99), "clamped to the end");
        assert_eq!(ids(&q), [1, 2, 3]);
        assert!(!q.move_entry(7, 0), "no such entry");
        assert!(q.cancel_entry(1));
        assert!(!q.move_entry(1, 2), "only a waiting entry moves");
        assert!(!q.cancel_entry(1), "already cancelled");
        match q.next(&RunSpec::new(""), &[None]) {
            Next::Run(id, job, _, _) => {
                assert_eq!(id, 2);
                assert_eq!(job.fresh.session, "s1");
                assert_eq!(job.fresh.crash.as_deref(), Some("c1"));
            }
            _ => panic!("the first waiting entry runs"),
        }
    }

    #[test]
    fn a_paused_queue_waits_and_cancel_all_ends_it() {
        let q = queue(2);
        q.pause();
        assert!(matches!(q.next(&RunSpec::new(""), &[None]), Next::Wait));
        q.cancel_all();
        assert!(matches!(q.next(&RunSpec::new(""), &[None]), Next::Done));
        assert!(q
            .view()
            .entries
            .iter()
            .all(|e| e.state == QueueState::Cancelled));
    }

    #[test]
    fn side_by_side_an_item_takes_a_free_lane_with_its_app_or_waits_for_one() {
        let lane = |device: &str, package: &str| QueueLane {
            device: device.into(),
            packages: vec![package.into()],
        };
        let (a, b) = (lane("A", "com.a"), lane("B", "com.b"));
        let with_package = |package: &str| {
            let q = Queue::new(&QueuePlan {
                items: vec![QueueItem {
                    session: "s".into(),
                    crash_id: "c1".into(),
                    label: None,
                    package: Some(package.into()),
                    skip: None,
                    resume: None,
                    left_behind: Vec::new(),
                }],
                unreadable: Vec::new(),
            });
            q.side_by_side(vec![a.clone(), b.clone()]);
            q
        };
        let spec = RunSpec::new("");
        match with_package("com.b").next(&spec, &[Some(a.clone()), Some(b.clone())]) {
            Next::Run(_, job, _, at) => {
                assert_eq!(at, 1, "the lane whose device has the app");
                assert_eq!(job.fresh.device.as_deref(), Some("B"), "pinned to it");
            }
            _ => panic!("a lane fits"),
        }
        assert!(
            matches!(
                with_package("com.a").next(&spec, &[Some(b.clone())]),
                Next::Wait
            ),
            "its device is busy: it waits rather than going where its app is not"
        );
        assert!(
            matches!(
                with_package("com.z").next(&spec, &[Some(b.clone())]),
                Next::Run(_, _, _, 0)
            ),
            "an app no device has goes anywhere: its run says what is missing"
        );
        let single = queue(1);
        single.side_by_side(vec![a.clone()]);
        match single.next(&spec, &[None]) {
            Next::Run(_, job, _, _) => {
                assert_eq!(job.fresh.device, None, "one lane: the run chooses")
            }
            _ => panic!("runs"),
        }
    }

    #[test]
    fn an_unfinished_run_started_with_the_same_options_is_resumed_else_left_behind() {
        let with_unfinished = || {
            Queue::new(&QueuePlan {
                items: vec![QueueItem {
                    session: "s".into(),
                    crash_id: "c1".into(),
                    label: None,
                    package: None,
                    skip: None,
                    resume: Some(ResumableRun {
                        evidence_session: "e-new".into(),
                        strategy: whittle_core::strategy::SearchStrategy::Seed,
                        max_replays: 30,
                        baseline_tries: 1,
                    }),
                    left_behind: vec!["e-old".into()],
                }],
                unreadable: Vec::new(),
            })
        };
        match with_unfinished().next(&RunSpec::new(""), &[None]) {
            Next::Run(_, job, _, _) => {
                let resume = job.resume.expect("the same options: resumed");
                assert_eq!(resume.evidence_session, "e-new");
                assert_eq!(resume.max_replays.map(|m| m.get()), Some(30));
                assert_eq!(job.discard, ["e-old"], "the older run is left behind");
            }
            _ => panic!("runs"),
        }
        let other_budget = RunSpec {
            max_replays: std::num::NonZeroU32::new(12).unwrap(),
            ..RunSpec::new("")
        };
        match with_unfinished().next(&other_budget, &[None]) {
            Next::Run(_, job, _, _) => {
                assert!(job.resume.is_none(), "another budget: a fresh run");
                assert_eq!(job.fresh.max_replays.get(), 12);
                assert_eq!(job.discard, ["e-old", "e-new"], "both are left behind");
            }
            _ => panic!("runs"),
        }
    }

    #[test]
    fn an_unreadable_session_is_listed_skipped_after_the_crash_groups_and_never_runs() {
        use super::super::queue_plan::{SessionReadProblem, UnreadableSession};
        let plan = QueuePlan {
            items: vec![item(0)],
            unreadable: vec![UnreadableSession {
                session: "broken".into(),
                problem: SessionReadProblem::Unreadable,
                detail: "steps.jsonl line 3".into(),
            }],
        };
        let q = Queue::new(&plan);
        let entries = q.view().entries;
        assert_eq!(ids(&q), [1, 2], "the crash group keeps the plan's id");
        assert_eq!(entries[1].session, "broken");
        assert_eq!(entries[1].crash_id, None);
        assert_eq!(
            entries[1].state,
            QueueState::Skipped {
                reason: QueueSkipReason::SessionUnreadable {
                    problem: SessionReadProblem::Unreadable,
                    detail: "steps.jsonl line 3".into(),
                }
            }
        );
        assert!(!q.move_entry(2, 0), "a skipped entry does not move");
        assert!(!q.cancel_entry(2), "nor cancels");
        match q.next(&RunSpec::new(""), &[None]) {
            Next::Run(id, _, _, _) => assert_eq!(id, 1),
            _ => panic!("the crash group runs"),
        }
        assert!(matches!(q.next(&RunSpec::new(""), &[None]), Next::Done));
    }

    #[test]
    fn the_view_has_the_shape_the_window_reads() {
        let q = queue(1);
        let json = serde_json::to_value(q.view()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"entries": [{"id": 1, "session": "s0", "crash_id": "c1",
                "label": null, "state": {"state": "waiting"}, "hint": null}], "paused": false, "running": false})
        );
    }
}
