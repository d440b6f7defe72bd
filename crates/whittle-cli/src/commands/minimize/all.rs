//! `whittle minimize --all`: every crash group of the workspace not yet minimized, run
//! one after another — or side by side, one on each online device, when no `--device`
//! or pool was asked (`api::queue_lanes`) — by the application API's queue
//! (`api::plan_queue`, `api::Queue`; a group's unfinished run started with the same
//! options is resumed, not started over),
//! each item's progress on stderr as a single run prints it, then a summary table on
//! stdout rendered from each item's typed state (with `--json`, one object per crash
//! group per line, each with its `exit`). Nothing is written back without `--approve`.
//! The exit code is the worst (largest) of the items' (a skipped item counts as proven,
//! a cancelled one as cancelled; no crash group at all is refused, as a session without
//! a crash is). SIGINT, SIGTERM and SIGHUP cancel the whole queue.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use whittle_service::api::Config;
use whittle_service::api::RunEvent;
use whittle_service::api::{
    approve, plan_queue, queue_lanes, Approvable, Queue, QueueEntry, QueueEvent, QueueScope,
    QueueSkipReason, QueueState, Replace, RunSpec,
};

use super::skip_words;
use crate::cli::MinimizeCommand;
use crate::exit::Exit;
use crate::locale::{self, CliWords};
use crate::progress::Progress;
use crate::signals::CancelOnSignal;

pub async fn run(config: &Config, args: &MinimizeCommand, template: RunSpec) -> Exit {
    let words = locale::words();
    let config = match &args.workspace {
        Some(w) => config.for_workspace(&std::path::absolute(w).unwrap_or_else(|_| w.clone())),
        None => config.clone(),
    };
    let plan = match plan_queue(
        &config.workspace,
        &QueueScope::Workspace,
        args.include_minimized,
    ) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("{}{e}", words.error);
            return Exit::Refused;
        }
    };
    for s in &plan.unreadable {
        eprintln!(
            "{}{}",
            words.warning,
            (words.queue_unreadable)(&s.session, &s.detail)
        );
    }
    if args.list {
        return super::list::print(words, &plan, args.json);
    }
    if plan.items.is_empty() {
        eprintln!("{}", words.queue_empty);
        return Exit::Refused;
    }
    let to_run =
        u32::try_from(plan.items.iter().filter(|i| i.skip.is_none()).count()).unwrap_or(u32::MAX);
    // Entry ids are the plan's order from 1: the unfinished run each entry may go on with.
    let resumable: HashMap<u32, String> = plan
        .items
        .iter()
        .zip(1u32..)
        .filter_map(|(item, id)| Some((id, item.resume.as_ref()?.evidence_session.clone())))
        .collect();
    let queue = Arc::new(Queue::new(&plan));
    let interrupted = Arc::new(AtomicBool::new(false));
    let signals = {
        let (queue, interrupted) = (Arc::clone(&queue), Arc::clone(&interrupted));
        CancelOnSignal::run(move || {
            interrupted.store(true, Ordering::SeqCst);
            queue.cancel_all();
        })
    };
    let progress = Progress::new(args.json);
    let budget = AtomicU32::new(0);
    let started = AtomicU32::new(0);
    let sidecars: Mutex<HashMap<u32, PathBuf>> = Mutex::default();
    let approve_failed = AtomicBool::new(false);
    let on_event = |event: QueueEvent| match event {
        QueueEvent::Run { entry, event } => {
            if let RunEvent::Started {
                evidence_session, ..
            } = &*event
            {
                let n = started.fetch_add(1, Ordering::Relaxed) + 1;
                if !args.json {
                    if let Some(e) = queue.view().entries.iter().find(|e| e.id == entry) {
                        let crash = e.crash_id.as_deref().unwrap_or_default();
                        eprintln!("{}", (words.queue_item)(n, to_run, &e.session, crash));
                    }
                    // It went on in the old evidence session: the resume was not refused.
                    if resumable.get(&entry) == Some(evidence_session) {
                        eprintln!("{}", (words.queue_resuming)(evidence_session));
                    }
                }
            }
            progress.on_event(&event, &budget);
        }
        QueueEvent::Ended { entry, result } if args.approve => {
            let Ok(outcome) = *result else {
                return;
            };
            if interrupted.load(Ordering::SeqCst) {
                return;
            }
            let Some(approvable) = Approvable::of_outcome(&outcome) else {
                return;
            };
            match approve(&approvable, Replace::OnlyOlder) {
                Ok((path, _)) => {
                    sidecars
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(entry, path);
                }
                Err(e) => {
                    eprintln!("{}{}{e}", words.error, words.not_written_back);
                    approve_failed.store(true, Ordering::SeqCst);
                }
            }
        }
        _ => {}
    };
    let lanes = queue_lanes(&config, &template).await;
    if !lanes.is_empty() && !args.json {
        let devices: Vec<String> = lanes.iter().map(|l| l.device.clone()).collect();
        eprintln!("{}", (words.queue_side_by_side)(&devices));
    }
    queue.side_by_side(lanes);
    queue.run(&config, &template, on_event).await;
    drop(signals);
    let view = queue.view();
    let sidecars = sidecars.into_inner().unwrap_or_else(|e| e.into_inner());
    if args.json {
        // One object per crash group: the unreadable sessions were warned about above
        // (and `--list --json` names them, with why).
        for entry in view.entries.iter().filter(|e| e.crash_id.is_some()) {
            let mut value = serde_json::to_value(entry).unwrap_or_default();
            if let Some(map) = value.as_object_mut() {
                map.insert(
                    "sidecar".into(),
                    sidecars
                        .get(&entry.id)
                        .map(|p| p.to_string_lossy().into_owned())
                        .into(),
                );
                map.insert("exit".into(), exit_of(&entry.state).json());
            }
            println!("{value}");
        }
    } else {
        print!("{}", table(words, &view.entries));
        for e in &view.entries {
            if let (Some(hint), Some(crash)) = (e.hint, &e.crash_id) {
                eprintln!("{}", super::hint::words(words, hint, &e.session, crash));
            }
        }
    }
    view.entries
        .iter()
        .map(|e| exit_of(&e.state))
        .chain(
            approve_failed
                .load(Ordering::SeqCst)
                .then_some(Exit::Infrastructure),
        )
        .max()
        .unwrap_or(Exit::Refused)
}

/// An item's exit code, as its single run would have exited (`whittle mcp`'s
/// `minimize_all` answers it too).
pub(crate) fn exit_of(state: &QueueState) -> Exit {
    match state {
        QueueState::Finished { summary, .. } => Exit::of_end(&summary.end),
        QueueState::Failed { refusal } => Exit::of_refusal(refusal),
        QueueState::Skipped { .. } => Exit::Proven,
        // Left waiting or running only when the queue was cancelled.
        QueueState::Cancelled | QueueState::Waiting | QueueState::Running { .. } => Exit::Cancelled,
    }
}

/// The summary table: one row per crash group, columns padded to their widest cell.
fn table(words: &CliWords, entries: &[QueueEntry]) -> String {
    let dash = || "–".to_owned();
    let mut rows: Vec<[String; 6]> = vec![words.queue_columns.map(str::to_owned)];
    for e in entries {
        let (result, steps, attempts, evidence) = match &e.state {
            QueueState::Finished { summary, .. } => (
                (words.queue_end)(&summary.end).to_owned(),
                format!(
                    "{}→{}",
                    summary.original_path.len(),
                    if summary.minimal_path.is_empty() {
                        dash()
                    } else {
                        summary.minimal_path.len().to_string()
                    }
                ),
                summary.attempts.to_string(),
                summary.evidence_session.clone().unwrap_or_else(dash),
            ),
            QueueState::Failed { refusal } => {
                ((words.queue_failed)(refusal.code()), dash(), dash(), dash())
            }
            QueueState::Skipped { reason } => {
                let evidence = match reason {
                    QueueSkipReason::AlreadyMinimized { evidence_session }
                    | QueueSkipReason::MinimizedUnchanged { evidence_session } => {
                        evidence_session.clone()
                    }
                    QueueSkipReason::NoLiveRun { .. }
                    | QueueSkipReason::SessionUnreadable { .. } => dash(),
                };
                (
                    skip_words::skipped(words, reason).to_owned(),
                    dash(),
                    dash(),
                    evidence,
                )
            }
            QueueState::Cancelled => (words.queue_cancelled.to_owned(), dash(), dash(), dash()),
            QueueState::Waiting | QueueState::Running { .. } => {
                (words.queue_waiting.to_owned(), dash(), dash(), dash())
            }
        };
        rows.push([
            e.session.clone(),
            e.crash_id.clone().unwrap_or_else(dash),
            result,
            steps,
            attempts,
            evidence,
        ]);
    }
    let mut widths = [0usize; 6];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
