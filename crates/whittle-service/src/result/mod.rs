//! What a run reports, and what it leaves as its result: the evidence session's
//! `result.json` ([`PendingResult`], read and written here), the `--json` object
//! ([`RunSummary`]) with the run's end an exit code comes from, the flags both
//! embed, and the approval that writes a result back into the session's sidecar (never
//! over a newer approval unless told, `newer_approval.rs`).
//!
//! A module of its own, below both the run (which writes these) and the evidence
//! (which reads `result.json` back to show or export it), so neither has to import
//! the other for them (`docs/architecture.md`, "Inside the application layer").

mod field_line;
mod file;
mod flags;
mod legacy;
mod newer_approval;
mod pending;
mod purpose;
mod resume_mark;
mod run_notice;
mod summary;
mod warning;

pub use field_line::field_line;
pub use file::{read_result, write_result, ResultFileError};
pub use flags::{Rating, SearchFlags};
pub use newer_approval::{is_newer, NewerApproval};
pub use pending::{
    approve, approve_entry, sidecar_entry, ApproveError, PendingResult, PlanEntry, RESULT_FILE,
};
pub use purpose::ResultPurpose;
pub use resume_mark::ResumeMark;
pub use run_notice::RunNotice;
pub use summary::RunSummary;
pub use warning::{ResultWarning, TypedWarning};
pub use whittle_core::run_end::RunEnd;
