//! *Minimize all* in the window: the application API's queue (`api::plan_queue`,
//! `api::Queue`) run in the background while it holds the app's one run slot (so no
//! single run starts meanwhile, and quitting cancels the whole queue and waits for it).
//! Each item's result is kept like a single run's, so *Approve* and *Export* work on it.

use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use whittle_core::strategy::SearchStrategy;
use whittle_service::api::{
    count_of, plan_queue, queue_lanes, AskedRun, CountField, InvalidCount, Queue, QueueEvent,
    QueueScope, QueueView, RunSpec,
};
use whittle_text::Locale;

use crate::app_config::config_for;
use crate::error::AppError;
use crate::run_update::RunUpdate;
use crate::runs::WindowRuns;

/// What the queue sends the window, over the channel `start_queue` was given.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueueUpdate {
    /// The whole queue, on every change.
    Queue { view: QueueView },
    /// One update of entry `entry`'s run, as `start_run` sends it (its events, then
    /// exactly one `ended`).
    Run {
        entry: u32,
        /// Boxed in Rust only; the JSON is the `RunUpdate` itself.
        update: Box<RunUpdate>,
    },
}

/// The window's queue: the last one started (kept after it ended, so its view stays).
#[derive(Default)]
pub struct QueueSlot(Mutex<Option<Arc<Queue>>>);

impl QueueSlot {
    pub fn get(&self) -> Option<Arc<Queue>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set(&self, queue: Arc<Queue>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(queue);
    }
}

/// What *Minimize all* was asked for.
pub struct QueueRequest {
    pub workspace: String,
    /// One session's crash groups; `None`: the whole workspace's.
    pub session: Option<String>,
    /// The options every item of the queue runs with, chosen before it starts.
    pub options: QueueOptions,
    /// The window's language: each item's result is worded in it, as a single run's.
    pub locale: Locale,
}

/// The queue-wide options the window asks for before *Minimize all* starts: every item
/// runs with them (the CLI's `minimize --all --max-replays --strategy
/// --baseline-tries --include-minimized`).
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct QueueOptions {
    /// Each item's replay budget (>= 1).
    pub max_replays: u32,
    pub strategy: SearchStrategy,
    /// Replays of the full path allowed until it reproduces (>= 1; 1 is the seed's
    /// single try).
    pub baseline_tries: u32,
    /// Queue the crash groups already minimized too: approved, or minimized and not
    /// changed since.
    pub include_minimized: bool,
}

impl QueueOptions {
    /// The run every item is made from (its session and crash are the item's); the
    /// counts checked once, by the application API.
    pub fn template(&self) -> Result<RunSpec, InvalidCount> {
        Ok(RunSpec::asked(
            "",
            AskedRun {
                max_replays: Some(count_of(CountField::MaxReplays, self.max_replays)?),
                strategy: Some(self.strategy),
                baseline_tries: Some(count_of(CountField::BaselineTries, self.baseline_tries)?),
                ..AskedRun::default()
            },
        ))
    }
}

/// Builds the queue `request` asks for and starts it in the background; its first view
/// is returned and every change goes to `send`.
pub fn start(
    config_path: Option<&Path>,
    runs: &Arc<WindowRuns>,
    slot: &QueueSlot,
    request: QueueRequest,
    send: impl Fn(QueueUpdate) + Send + Sync + 'static,
) -> Result<QueueView, AppError> {
    // Bad input is refused here, before any side effect.
    let template = request
        .options
        .template()
        .map_err(|e| AppError::invalid_count(&e))?;
    let config = config_for(config_path, Path::new(&request.workspace))?;
    let scope = request
        .session
        .map_or(QueueScope::Workspace, QueueScope::Session);
    let plan = plan_queue(&config.workspace, &scope, request.options.include_minimized)?;
    let locale = request.locale;
    // Listed in the queue as skipped, with why; logged for the record.
    for s in &plan.unreadable {
        tracing::warn!(session = %s.session, detail = %s.detail, "session cannot be read: no crash group of it is queued");
    }
    let (run_id, cancel) = runs.begin()?;
    let queue = Arc::new(Queue::with_cancel(&plan, cancel));
    // The window shows each item's devices as it replays.
    queue.watch_devices();
    slot.set(Arc::clone(&queue));
    tracing::info!(run_id, entries = plan.items.len(), "minimize queue started");
    let view = queue.view();
    let (runs_for_task, driver) = (Arc::clone(runs), Arc::clone(&queue));
    let task = tauri::async_runtime::spawn(async move {
        let runs = runs_for_task;
        let workspace = config.workspace.clone();
        let on_event = |event: QueueEvent| match event {
            QueueEvent::Changed(view) => send(QueueUpdate::Queue { view }),
            QueueEvent::Run { entry, event } => {
                runs.note_event(&workspace, &event);
                let update = RunUpdate::Event {
                    run_id,
                    event: *event,
                };
                send(QueueUpdate::Run {
                    entry,
                    update: Box::new(update),
                });
            }
            QueueEvent::Frame { entry, frame } => send(QueueUpdate::Run {
                entry,
                update: Box::new(RunUpdate::Frame {
                    run_id,
                    frame: *frame,
                }),
            }),
            QueueEvent::Ended { entry, result } => {
                let update = match *result {
                    Ok(outcome) => RunUpdate::Ended {
                        run_id,
                        result: Some(Box::new(runs.finish(&workspace, &outcome, locale))),
                        error: None,
                    },
                    Err(e) => RunUpdate::Ended {
                        run_id,
                        result: None,
                        error: Some(AppError::run_failed(&e).payload()),
                    },
                };
                send(QueueUpdate::Run {
                    entry,
                    update: Box::new(update),
                });
            }
        };
        // Every item from the queue's options; side by side when several devices are
        // online (api::queue_lanes).
        driver.side_by_side(queue_lanes(&config, &template).await);
        driver.run(&config, &template, on_event).await;
        tracing::info!(run_id, "minimize queue ended");
        runs.end(run_id);
    });
    runs.attach(run_id, task);
    Ok(view)
}

/// The queue's controls, each false when there is no queue (or nothing to act on).
pub fn control(slot: &QueueSlot, act: impl FnOnce(&Queue) -> bool) -> bool {
    slot.get().is_some_and(|q| act(&q))
}
