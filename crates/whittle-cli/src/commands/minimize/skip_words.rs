//! Why a crash group of a *Minimize all* queue is not run, in the terminal's words: the
//! queue's table (`all.rs`) and its `--list` (`list.rs`) say it alike.

use whittle_service::api::{QueueSkipReason, SessionReadProblem};

use crate::locale::CliWords;

/// Why an item is skipped, in the terminal's words (the table and `--list`).
pub(super) fn skipped(words: &CliWords, reason: &QueueSkipReason) -> &'static str {
    match reason {
        QueueSkipReason::AlreadyMinimized { .. } => words.queue_already_minimized,
        QueueSkipReason::MinimizedUnchanged { .. } => words.queue_minimized_unchanged,
        QueueSkipReason::NoLiveRun { .. } => words.queue_no_live_run,
        QueueSkipReason::SessionUnreadable { problem, .. } => match problem {
            SessionReadProblem::InvalidId => words.queue_session_invalid_id,
            SessionReadProblem::NotFound => words.queue_session_not_found,
            SessionReadProblem::Unreadable => words.queue_session_unreadable,
        },
    }
}
