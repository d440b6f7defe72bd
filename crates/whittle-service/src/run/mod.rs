//! The minimize run (Phases 0–5 (docs/design.md §13)) over the five MCP roles. Nothing is written to
//! the original session: a live result is returned as a [`PendingResult`] that only
//! [`approve`] writes back, on the user's say-so.

mod attempt;
mod attempt_verdict;
mod decode_warnings;
mod device_claim;
mod error;
mod event;
mod event_sink;
mod evidence_session;
mod evidence_step;
mod finish;
mod hint;
mod journal;
mod journal_seal;
mod live;
mod localized_report;
mod lock;
mod outcome;
mod past_runs;
mod pool_record;
mod prepare;
mod recorded;
mod recorded_attempt;
mod reproof;
mod resume;
mod rounds;
mod sealed_run;
mod search;
mod spec;
mod static_result;
mod stop_gate;
mod verify;

pub use attempt_verdict::AttemptVerdict;
pub use decode_warnings::{read_decode_warnings, DECODE_WARNINGS_FILE};
pub use error::RunError;
pub use event::RunEvent;
pub use event_sink::{RunEvents, Watched};
pub use evidence_session::{evidence_name, safe_device_id};
pub use hint::{run_hint, RunHint};
pub use journal::{
    has_journal, parse_journal, read_journal, sealed_journal, AttemptOutcome, DiscardMark, Journal,
    JournalAttempt, JournalContents, JournalError, JournalHeader, JournalRecord, JournalRound,
    JOURNAL_FILE, JOURNAL_FORMAT,
};
// `import --record` runs one replay with the same evidence and device choice.
pub use crate::result::RunNotice;
pub(crate) use attempt::{Attempt, ShotAfterCancel};
pub(crate) use device_claim::{check_tools, claim_device, needed_tools};
pub(crate) use evidence_session::{capture_problem, stop_problem, EvidenceSession};
pub(crate) use evidence_step::attempt_step;
pub use localized_report::localized_report;
pub use lock::{
    listed_run_state, lock_is_held, run_state, LockError, RunLock, RunState, LOCK_FILE,
};
pub use outcome::RunOutcome;
pub use past_runs::{approved_runs, listed_run, newest_first, past_runs, PastRun, PastRunOutcome};
pub use pool_record::{read_pool_record, PoolRecord, PoolReplay, POOL_FILE};
pub(crate) use prepare::is_online_android;
pub(crate) use prepare::{choose_device, version_text};
pub use prepare::{prepare, LiveRun, Prepared, StaticRun};
pub use recorded::{attempt_of, read_recorded_run, NoRunResult, RecordedRun, RecordedRunError};
pub use recorded_attempt::RecordedAttempt;
pub use reproof::Reproof;
pub use resume::{
    can_resume, discard, outcome_of, restore, resume, session_files_hash, Differences,
    RestoreError, Restored, ResumeError, ResumeMismatch, ResumeOptions,
};
pub use rounds::{Batch, RoundCursor, Turn};
pub use sealed_run::{
    read_sealed_evidence, read_sealed_run, replay_sealed, SealedRun, SealedRunError, StepChange,
};
pub use spec::{AskedRun, RunSpec, DEFAULT_MAX_REPLAYS};
pub use verify::{verify_bundle, VerifyError, VerifyReport};
// What a run reports is defined below it, in `crate::result`, where the evidence reads
// it too; named here as well, where a caller starts the run.
pub use crate::result::{
    approve, approve_entry, sidecar_entry, ApproveError, PendingResult, PlanEntry, Rating,
    ResumeMark, RunEnd, RunSummary, SearchFlags, RESULT_FILE,
};

use tokio_util::sync::CancellationToken;

use crate::client::Hub;
use crate::config::Config;

/// Runs Phases 0–5. Refusals before the evidence session exists are `Err`; once it
/// exists every ending (including capture/runtime failure and cancellation) is an
/// `Ok(RunOutcome)` whose evidence was stopped and finalized.
pub async fn minimize(
    hub: &Hub,
    config: &Config,
    opts: RunSpec,
    on_event: impl RunEvents,
    cancel: CancellationToken,
) -> Result<RunOutcome, RunError> {
    let prepared = tokio::select! {
        biased;
        _ = cancel.cancelled() => return Err(RunError::Cancelled),
        prepared = tracing::Instrument::instrument(
            prepare(hub, config, &opts),
            tracing::debug_span!("prepare"),
        ) => prepared?,
    };
    match prepared {
        Prepared::Static(run) => {
            let mut outcome = static_result::outcome(&run);
            let decode_warnings = hub.decode_warnings();
            outcome
                .summary
                .warnings
                .extend(decode_warnings.iter().map(finish::decode_warning));
            on_event.event(RunEvent::Finished(outcome.summary.clone()));
            Ok(outcome)
        }
        Prepared::Live(run) => live::run_live(hub, config, &run, &on_event, &cancel).await,
    }
}
