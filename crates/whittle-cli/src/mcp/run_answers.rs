//! What the run tools of `whittle mcp` answer (`minimize`, `resume`, `minimize_all`),
//! and the one record that says what the user does next with a result ([`UserNext`]):
//! approving stays the user's, so no tool approves, and every answer that ends in a
//! result that may be written back carries this record as `next`, in these words only;
//! a run made elsewhere, which nothing here proves, is re-proven first (`reprove`).

use schemars::JsonSchema;
use serde::Serialize;
use whittle_service::api::{NextStep, QueueEntry, QueueState, RunHint, UnreadableSession};

use super::service_calls::RunSummary;

/// What the user does next with a result: approve it, or (a run made elsewhere, which
/// nothing on this machine proves) re-prove it first — in Whittle's window, or with the
/// terminal command. No tool approves: the agent tells the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum UserNext {
    Approve {
        /// The window's result view of the run offers *Approve* (open the session, then
        /// the run in its past runs).
        approve_in_window: bool,
        /// The command the user runs in a terminal to approve it (`whittle approve`,
        /// which checks the evidence first, as the window does).
        command: String,
    },
    /// Re-prove the run on a device here: this server's `minimize` with `reprove` set
    /// to `evidence_session` (or the window's *Re-prove on this device*, or `command`);
    /// the new run, once minimized, is approved as any run is.
    Reprove {
        evidence_session: String,
        reprove_in_window: bool,
        command: String,
    },
}

impl UserNext {
    /// The one wording: the run of evidence session `evidence_session` (a validated id,
    /// a plain folder name).
    pub fn approve(evidence_session: &str) -> UserNext {
        UserNext::Approve {
            approve_in_window: true,
            command: format!("whittle approve {evidence_session}"),
        }
    }

    /// The API's way forward, as the user takes it.
    pub fn of(next: &NextStep) -> UserNext {
        match next {
            NextStep::Reprove { evidence_session } => UserNext::Reprove {
                evidence_session: evidence_session.clone(),
                reprove_in_window: true,
                command: format!("whittle minimize --reprove {evidence_session}"),
            },
        }
    }
}

/// A run's summary (`whittle minimize --json`), and how the user approves its result.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunAnswer {
    #[serde(flatten)]
    pub summary: RunSummary,
    /// Present when the run ended with a result that may be written back: how the user
    /// approves it. Absent for a cancelled run (resume it first), a run that did not
    /// reproduce, or one that may not be written back.
    pub next: Option<UserNext>,
    /// What to try next when the run ended without a result a change of options may
    /// give: `more_baseline_tries` when the crash did not reproduce on the baseline's
    /// only try (it may be flaky: run it again with `baseline_tries` 3 or more). Absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<RunHint>,
}

/// A *Minimize all* queue as it ended (`whittle minimize --all --json`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct MinimizeAllAnswer {
    /// One entry per crash group, in the queue's order.
    pub entries: Vec<QueueItemAnswer>,
    /// Sessions left out because they cannot be read (untrusted data in `detail`).
    pub unreadable: Vec<UnreadableSession>,
    /// The devices items ran on side by side (one item on each); empty when they ran
    /// one after another.
    pub side_by_side: Vec<String>,
    /// The queue was cancelled (the request was): items not yet run are `cancelled`,
    /// the running one ended as its run did.
    pub cancelled: bool,
}

/// One crash group of the queue.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QueueItemAnswer {
    /// Its id (from 1, the queue's order), session, crash, label (untrusted data) and
    /// how it ended (`state`: finished with its run's summary, failed with the typed
    /// refusal, skipped with why, or cancelled).
    #[serde(flatten)]
    pub entry: QueueEntry,
    /// The code `whittle` exits with for this item alone.
    pub exit: u8,
    /// Present when the item's run ended with a result that may be written back.
    pub next: Option<UserNext>,
}

impl QueueItemAnswer {
    /// The evidence session of a finished item's run.
    pub fn evidence_session(entry: &QueueEntry) -> Option<&str> {
        match &entry.state {
            QueueState::Finished { summary, .. } => summary.evidence_session.as_deref(),
            _ => None,
        }
    }
}
