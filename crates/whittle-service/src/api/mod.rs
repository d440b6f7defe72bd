//! The application API: the actions every front end shares — the window
//! (`src-tauri`), the terminal (`whittle`) and `whittle mcp` — each taking one validated
//! request and returning typed records, so a rule lives here once and a front end only
//! parses its input, calls in and renders what comes back (docs/architecture.md, "The
//! application API").
//!
//! | Action | Here |
//! |---|---|
//! | start, resume and cancel a run | [`run`] over a [`RunJob`] ([`RunSpec`], counts by [`parse_count`]/[`count_of`]); a refusal is a [`RunRefusal`] |
//! | a session and its past runs | [`session_detail`], [`sessions`], [`past_runs`] |
//! | reopen a past run | [`reopen`] |
//! | the result view of a run, live or reopened | [`ResultFacts`], [`result_view`] |
//! | validate for approval, approve | [`approvable_from_files`], [`approve`], [`approve_evidence`] |
//! | estimate replays | [`estimate`] |
//! | the devices a run may use | [`list_devices`] |
//! | record an imported session | [`record`] |

mod approval;
mod approve_evidence;
mod count;
mod devices;
mod estimate;
mod evidence_check;
mod record;
mod refusal;
mod reopen;
mod result_view;
mod run_job;
mod session_detail;
mod session_error;

pub use approval::{approve, Approvable, Approval};
pub use approve_evidence::{approve_evidence, ApproveRequest, ApproveRunError};
pub use count::{count_of, parse_count, CountField, InvalidCount};
pub use devices::{list_devices, DeviceView, DevicesError};
pub use estimate::{estimate, ReplayEstimate, ReplayRange};
pub use evidence_check::{approvable_from_files, check_evidence, Inconsistency, NotApprovable};
pub use record::{record, RecordFailure};
pub use refusal::{
    CrashChoice, DeviceChoice, RefusalStatus, RunRefusal, ServerProblem, ServerProblemKind,
};
pub use reopen::{reopen, summary_of, ReopenError, Reopened, ReopenedRun};
pub use result_view::{
    default_export_folder, result_view, ApproveBlock, ResultFacts, RunResultView,
};
pub use run_job::{run, RunFailure, RunJob};
pub use session_detail::{
    session_detail, sessions, CoverageView, CrashDetail, PlanView, SessionDetail, StepRole,
    StepView,
};
pub use session_error::SessionReadError;

// Past runs, as the run module lists them.
pub use crate::run::{approved_runs, past_runs, PastRun, PastRunOutcome};
// The request types the actions take, defined where the run consumes them.
pub use crate::run::{ResumeOptions, RunSpec, DEFAULT_MAX_REPLAYS};
