//! The progress bridge: a minimize run's events become MCP progress notifications
//! (`notifications/progress`) for the request that started it, one per finished
//! attempt, when the caller asked for them with a `progressToken` in the request's
//! `_meta`. The run calls back synchronously; the notifications go out from a task of
//! their own, in order, and all of them before the tool's answer.
//!
//! A *Minimize all* queue sends one stream per crash group on the request's one token:
//! each notification is tagged with its crash group (`_meta."whittle/crash_group"`:
//! `{entry, session, crash_id, attempts, max_replays}`, and the message starts with the
//! session and crash), and `progress` counts the queue's finished attempts, so it only
//! grows as MCP requires of one token.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use serde_json::json;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::task::JoinHandle;

use super::service_calls::RunEvent;
use crate::locale;
use crate::progress::attempt_line;

/// Turns run events into notifications; dropping it ends the forwarding.
pub struct ProgressBridge {
    /// `None` when the caller asked for no progress.
    target: Option<(ProgressToken, UnboundedSender<ProgressNotificationParam>)>,
    max_replays: AtomicU32,
    finished: AtomicU32,
    /// A queue's crash groups: each entry's budget and finished attempts.
    groups: Mutex<HashMap<u32, (u32, u32)>>,
}

/// The task sending the notifications; [`Forwarding::flush`] waits until the last one
/// is sent.
pub struct Forwarding(Option<JoinHandle<()>>);

impl ProgressBridge {
    /// The bridge for the request of `context`, and the task that forwards its
    /// notifications to the caller.
    pub fn start(context: &RequestContext<RoleServer>) -> (ProgressBridge, Forwarding) {
        let Some(token) = context.meta.get_progress_token() else {
            return (ProgressBridge::silent(), Forwarding(None));
        };
        let (sender, mut receiver) = unbounded_channel::<ProgressNotificationParam>();
        let peer = context.peer.clone();
        let task = tokio::spawn(async move {
            while let Some(param) = receiver.recv().await {
                // A caller that went away gets no more progress; the run goes on.
                if peer.notify_progress(param).await.is_err() {
                    break;
                }
            }
        });
        let bridge = ProgressBridge {
            target: Some((token, sender)),
            ..ProgressBridge::silent()
        };
        (bridge, Forwarding(Some(task)))
    }

    fn silent() -> ProgressBridge {
        ProgressBridge {
            target: None,
            max_replays: AtomicU32::new(0),
            finished: AtomicU32::new(0),
            groups: Mutex::default(),
        }
    }

    /// Progress is the number of finished attempts (it only grows, also when attempts
    /// on several devices finish out of order), out of the run's replay budget.
    pub fn on_event(&self, event: &RunEvent) {
        let Some((token, sender)) = &self.target else {
            return;
        };
        match event {
            RunEvent::Started { max_replays, .. } => {
                self.max_replays.store(*max_replays, Ordering::Relaxed);
            }
            RunEvent::AttemptFinished(finished_attempt) => {
                let finished = self.finished.fetch_add(1, Ordering::Relaxed) + 1;
                let max = self.max_replays.load(Ordering::Relaxed);
                let line = attempt_line(
                    locale::words(),
                    finished_attempt.attempt,
                    max,
                    finished_attempt.phase,
                    &finished_attempt.candidate,
                );
                let param = ProgressNotificationParam::new(token.clone(), f64::from(finished))
                    .with_total(f64::from(max))
                    .with_message(line);
                // The receiver lives until the bridge is dropped.
                let _ = sender.send(param);
            }
            _ => {}
        }
    }
}

impl ProgressBridge {
    /// One event of the run of a queue's entry `entry` (crash `crash_id` of `session`):
    /// a notification per finished attempt, tagged with the crash group.
    pub fn on_queue_event(&self, entry: u32, session: &str, crash_id: &str, event: &RunEvent) {
        let Some((token, sender)) = &self.target else {
            return;
        };
        let mut groups = self.groups.lock().unwrap_or_else(|e| e.into_inner());
        let group = groups.entry(entry).or_insert((0, 0));
        match event {
            RunEvent::Started { max_replays, .. } => group.0 = *max_replays,
            RunEvent::AttemptFinished(finished_attempt) => {
                group.1 += 1;
                let (max, attempts) = *group;
                let all = self.finished.fetch_add(1, Ordering::Relaxed) + 1;
                let line = attempt_line(
                    locale::words(),
                    finished_attempt.attempt,
                    max,
                    finished_attempt.phase,
                    &finished_attempt.candidate,
                );
                let tag = json!({
                    "entry": entry,
                    "session": session,
                    "crash_id": crash_id,
                    "attempts": attempts,
                    "max_replays": max,
                });
                let mut meta = serde_json::Map::new();
                meta.insert("whittle/crash_group".to_owned(), tag);
                let mut param = ProgressNotificationParam::new(token.clone(), f64::from(all))
                    .with_message(format!("{session} {crash_id}: {line}"));
                param.meta = Some(meta.into());
                let _ = sender.send(param);
            }
            _ => {}
        }
    }
}

impl Forwarding {
    /// Waits until every notification sent so far is out. The bridge must be dropped
    /// first, or this waits for ever.
    pub async fn flush(self) {
        if let Some(task) = self.0 {
            let _ = task.await;
        }
    }
}
