//! The runs an agent starts besides `minimize`: `resume` (an unfinished run goes on
//! from its journal, `whittle minimize --resume`) and `minimize_all` (the application
//! API's queue of crash groups, `whittle minimize --all`). Both through `api::run` and
//! `api::Queue`, as the terminal and the window; neither writes anything back.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;
use whittle_service::api::RunOutcome;
use whittle_service::api::{
    self, count_of, plan_queue, queue_lanes, Approvable, AskedRun, CountField, Queue, QueueEvent,
    QueueScope, ResumeOptions, RunJob, RunRefusal, RunSpec,
};

use whittle_service::api::Config;
use whittle_service::api::RunEvent;

use crate::commands::minimize::all::exit_of;
use crate::exit::Exit;
use crate::mcp::args::{MinimizeAllArgs, ResumeArgs};
use crate::mcp::failure::ToolFailure;
use crate::mcp::lookup::{resolve, valid_id, Listed};
use crate::mcp::run_answers::{MinimizeAllAnswer, QueueItemAnswer, RunAnswer, UserNext};
use crate::mcp::run_refusal::run_failure;

/// A run's answer: its summary, and how the user approves its result when it may be
/// written back (a cancelled run's may not: it is resumed first, as the CLI decides).
pub fn answer(outcome: &RunOutcome, cancelled: bool) -> RunAnswer {
    RunAnswer {
        next: approvable(outcome, cancelled)
            .then(|| {
                outcome
                    .summary
                    .evidence_session
                    .as_deref()
                    .map(UserNext::approve)
            })
            .flatten(),
        summary: outcome.summary.clone(),
        hint: outcome.hint,
    }
}

/// What `whittle minimize` would offer to write back.
fn approvable(outcome: &RunOutcome, cancelled: bool) -> bool {
    !cancelled && Approvable::of_outcome(outcome).is_some()
}

fn count(
    field: CountField,
    given: Option<u32>,
) -> Result<Option<std::num::NonZeroU32>, ToolFailure> {
    given
        .map(|n| count_of(field, n))
        .transpose()
        .map_err(|e| ToolFailure::refused(RunRefusal::of_count(&e), e))
}

fn wait(seconds: Option<u32>) -> Option<std::time::Duration> {
    seconds.map(|s| std::time::Duration::from_secs(u64::from(s)))
}

/// `whittle minimize --resume <evidence>`.
pub async fn resume(
    config: &Config,
    args: ResumeArgs,
    on_event: impl Fn(RunEvent) + Send + Sync,
    cancel: CancellationToken,
) -> Result<RunAnswer, ToolFailure> {
    resolve(config, &args.evidence_session, Listed::Evidence).map_err(|e| {
        ToolFailure::refused(
            RunRefusal::EvidenceNotFound {
                detail: e.error.clone(),
            },
            e.error,
        )
    })?;
    let options = ResumeOptions {
        evidence_session: args.evidence_session,
        device: args.device,
        devices: count(CountField::Devices, args.devices)?,
        strategy: args.strategy,
        max_replays: count(CountField::MaxReplays, args.max_replays)?,
        wait_device: wait(args.wait_device_seconds),
    };
    let outcome = api::run(config, RunJob::Resume(options), on_event, cancel.clone()).await;
    outcome
        .map(|o| answer(&o, cancel.is_cancelled()))
        .map_err(|e| run_failure(config, &e))
}

/// `whittle minimize --all`: the queue of crash groups, run as the terminal runs it
/// (side by side on the online devices unless a device or a pool is asked), every run
/// event handed to `on_event` with its entry, session and crash. Cancelling `cancel`
/// cancels the whole queue.
pub async fn minimize_all(
    config: &Config,
    args: MinimizeAllArgs,
    on_event: impl Fn(u32, &str, &str, &RunEvent) + Send + Sync,
    cancel: CancellationToken,
) -> Result<MinimizeAllAnswer, ToolFailure> {
    let scope = match &args.session {
        Some(id) => {
            valid_id(id)?;
            resolve(config, id, Listed::Session)?;
            QueueScope::Session(id.clone())
        }
        None => QueueScope::Workspace,
    };
    // A template: each item's session and crash are the queue's.
    let template = RunSpec::asked(
        String::new(),
        AskedRun {
            max_replays: count(CountField::MaxReplays, args.max_replays)?,
            devices: count(CountField::Devices, args.devices)?,
            baseline_tries: count(CountField::BaselineTries, args.baseline_tries)?,
            device: args.device,
            strategy: args.strategy,
            wait_device: wait(args.wait_device_seconds),
            ..AskedRun::default()
        },
    );
    let plan = plan_queue(&config.workspace, &scope, args.include_minimized).map_err(|e| {
        ToolFailure::new(Exit::Refused, format!("{e}: call `sessions` to list them"))
    })?;
    if plan.items.is_empty() {
        return Err(ToolFailure::new(
            Exit::Refused,
            "no crash group to minimize: call `sessions` to find sessions with crashes",
        ));
    }
    // Entry ids are the plan's order from 1.
    let groups: HashMap<u32, (String, String)> = plan
        .items
        .iter()
        .zip(1u32..)
        .map(|(item, id)| (id, (item.session.clone(), item.crash_id.clone())))
        .collect();
    let queue = Arc::new(Queue::new(&plan));
    let approvable_entries: Mutex<HashSet<u32>> = Mutex::default();
    let on_queue_event = |event: QueueEvent| match event {
        QueueEvent::Run { entry, event } => {
            if let Some((session, crash)) = groups.get(&entry) {
                on_event(entry, session, crash, &event);
            }
        }
        QueueEvent::Ended { entry, result } => {
            if let Ok(outcome) = &*result {
                if approvable(outcome, cancel.is_cancelled()) {
                    approvable_entries
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(entry);
                }
            }
        }
        _ => {}
    };
    let lanes = queue_lanes(config, &template).await;
    let side_by_side: Vec<String> = if lanes.len() < 2 {
        Vec::new()
    } else {
        lanes.iter().map(|l| l.device.clone()).collect()
    };
    queue.side_by_side(lanes);
    let cancelling = {
        let (queue, cancel) = (Arc::clone(&queue), cancel.clone());
        tokio::spawn(async move {
            cancel.cancelled().await;
            queue.cancel_all();
        })
    };
    queue.run(config, &template, on_queue_event).await;
    cancelling.abort();
    let approvable_entries = approvable_entries
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let entries = queue
        .view()
        .entries
        .into_iter()
        // The unreadable sessions are answered in `unreadable`, with why.
        .filter(|entry| entry.crash_id.is_some())
        .map(|entry| QueueItemAnswer {
            exit: exit_of(&entry.state) as u8,
            next: approvable_entries
                .contains(&entry.id)
                .then(|| QueueItemAnswer::evidence_session(&entry).map(UserNext::approve))
                .flatten(),
            entry,
        })
        .collect();
    Ok(MinimizeAllAnswer {
        entries,
        unreadable: plan.unreadable,
        side_by_side,
        cancelled: cancel.is_cancelled(),
    })
}
