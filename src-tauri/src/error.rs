//! The one error type commands return. The UI sees `{ code, message }`: `code` is a
//! stable machine string to branch on, `message` a sentence a tester understands. A
//! refused run also carries `refusal`, the typed case with its data (the devices or
//! crashes to choose from), so the window can offer the choice; an approval that would
//! replace a newer one carries `newer_approval`, both entries, so the window can ask.

use serde::Serialize;

use whittle_core::workspace::WorkspaceError;
use whittle_service::api::pictures::PictureError;
use whittle_service::api::RunError;
use whittle_service::api::{
    ApproveError, ApproveRunError, ConfigEditError, HeldResultError, InvalidCount, ReopenError,
    RunFailure, RunInProgress, RunRefusal, SessionReadError, WatchError,
};

use crate::newer_approval::NewerApprovalView;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("the workspace folder {path} cannot be read: {reason}")]
    WorkspaceUnreadable { path: String, reason: String },
    #[error("“{id}” is not a valid session id: {reason}")]
    InvalidSessionId { id: String, reason: String },
    #[error("session {id} cannot be opened: {reason}")]
    SessionUnreadable { id: String, reason: String },
    #[error("the replay plan for crash {crash_id} cannot be built: {reason}")]
    PlanUnavailable { crash_id: String, reason: String },
    #[error("Whittle's configuration cannot be used: {reason}")]
    ConfigUnavailable { reason: String },
    #[error("the device servers did not start: {reason}")]
    ServersUnavailable { reason: String },
    #[error("a minimize run is already in progress; cancel it or wait for it to end")]
    RunInProgress,
    #[error("the run cannot start: {reason}")]
    RunRefused { reason: String, refusal: RunRefusal },
    #[error("there is no result of evidence session {evidence_session} to approve or export in this window")]
    NoResult { evidence_session: String },
    #[error("the result was not written: {reason}")]
    ApproveFailed { reason: String },
    #[error("the result was not written: {reason}")]
    NewerApproval {
        reason: String,
        /// Boxed: both entries' texts would make every command's error large.
        newer: Box<NewerApprovalView>,
    },
    #[error("the bug-ticket bundle was not exported: {reason}")]
    ExportFailed { reason: String },
    #[error("the clipboard refused the text: {reason}")]
    ClipboardRefused { reason: String },
    #[error("the screenshot cannot be used: {reason}")]
    ScreenshotUnavailable { reason: String },
    #[error("{path} cannot be shown: {reason}")]
    RevealFailed { path: String, reason: String },
    #[error("the interrupted run was not discarded: {reason}")]
    DiscardFailed { reason: String },
    #[error("the flow was not imported: {reason}")]
    ImportFailed { reason: String },
    #[error("the flow was not recorded: {reason}")]
    RecordFailed { reason: String },
}

/// Stable codes; renaming one is a breaking change for the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    WorkspaceUnreadable,
    InvalidSessionId,
    SessionUnreadable,
    PlanUnavailable,
    ConfigUnavailable,
    ServersUnavailable,
    RunInProgress,
    RunRefused,
    NoResult,
    ApproveFailed,
    /// The sidecar holds a newer approval of the crash: confirm to replace it.
    NewerApproval,
    ExportFailed,
    ClipboardRefused,
    ScreenshotUnavailable,
    RevealFailed,
    DiscardFailed,
    ImportFailed,
    RecordFailed,
}

/// The wire shape of an [`AppError`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct ErrorPayload {
    pub code: ErrorCode,
    pub message: String,
    /// Only with `run_refused`: which refusal, with what the user can choose from.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[specta(optional)]
    pub refusal: Option<RunRefusal>,
    /// Only with `newer_approval`: the approval kept and the one refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[specta(optional)]
    pub newer_approval: Option<NewerApprovalView>,
}

impl AppError {
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::WorkspaceUnreadable { .. } => ErrorCode::WorkspaceUnreadable,
            AppError::InvalidSessionId { .. } => ErrorCode::InvalidSessionId,
            AppError::SessionUnreadable { .. } => ErrorCode::SessionUnreadable,
            AppError::PlanUnavailable { .. } => ErrorCode::PlanUnavailable,
            AppError::ConfigUnavailable { .. } => ErrorCode::ConfigUnavailable,
            AppError::ServersUnavailable { .. } => ErrorCode::ServersUnavailable,
            AppError::RunInProgress => ErrorCode::RunInProgress,
            AppError::RunRefused { .. } => ErrorCode::RunRefused,
            AppError::NoResult { .. } => ErrorCode::NoResult,
            AppError::ApproveFailed { .. } => ErrorCode::ApproveFailed,
            AppError::NewerApproval { .. } => ErrorCode::NewerApproval,
            AppError::ExportFailed { .. } => ErrorCode::ExportFailed,
            AppError::ClipboardRefused { .. } => ErrorCode::ClipboardRefused,
            AppError::ScreenshotUnavailable { .. } => ErrorCode::ScreenshotUnavailable,
            AppError::RevealFailed { .. } => ErrorCode::RevealFailed,
            AppError::DiscardFailed { .. } => ErrorCode::DiscardFailed,
            AppError::ImportFailed { .. } => ErrorCode::ImportFailed,
            AppError::RecordFailed { .. } => ErrorCode::RecordFailed,
        }
    }

    /// A refused run: the sentence is the run's own, the data its typed case.
    pub fn run_refused(error: &RunError) -> AppError {
        AppError::RunRefused {
            reason: error.to_string(),
            refusal: RunRefusal::of(error),
        }
    }

    /// A count of the run panel's request that is not >= 1.
    pub fn invalid_count(error: &InvalidCount) -> AppError {
        AppError::RunRefused {
            reason: error.to_string(),
            refusal: RunRefusal::of_count(error),
        }
    }

    /// A run that did not start, or stopped before its evidence existed.
    pub fn run_failed(error: &RunFailure) -> AppError {
        match error {
            RunFailure::Servers(e) => AppError::ServersUnavailable {
                reason: e.to_string(),
            },
            RunFailure::Run(e) => AppError::run_refused(e),
        }
    }

    pub fn payload(&self) -> ErrorPayload {
        ErrorPayload {
            code: self.code(),
            message: self.to_string(),
            refusal: match self {
                AppError::RunRefused { refusal, .. } => Some(refusal.clone()),
                _ => None,
            },
            newer_approval: match self {
                AppError::NewerApproval { newer, .. } => Some(newer.as_ref().clone()),
                _ => None,
            },
        }
    }
}

impl From<SessionReadError> for AppError {
    fn from(error: SessionReadError) -> AppError {
        match error {
            SessionReadError::Workspace { workspace, source } => AppError::WorkspaceUnreadable {
                path: workspace.display().to_string(),
                reason: match source {
                    WorkspaceError::NoSessionsFolder { .. } => {
                        "it has no sessions folder, so it is not a Whittle workspace".to_owned()
                    }
                    other => other.to_string(),
                },
            },
            SessionReadError::InvalidId { id, source } => AppError::InvalidSessionId {
                id,
                reason: source.to_string(),
            },
            SessionReadError::NotFound { id, source } => AppError::SessionUnreadable {
                id,
                reason: source.to_string(),
            },
            SessionReadError::Unreadable { id, source } => AppError::SessionUnreadable {
                id,
                reason: source.to_string(),
            },
        }
    }
}

impl From<RunInProgress> for AppError {
    fn from(_: RunInProgress) -> AppError {
        AppError::RunInProgress
    }
}

impl From<ConfigEditError> for AppError {
    fn from(error: ConfigEditError) -> AppError {
        AppError::ConfigUnavailable {
            reason: error.to_string(),
        }
    }
}

impl From<ReopenError> for AppError {
    fn from(error: ReopenError) -> AppError {
        match error {
            ReopenError::Session(e) => e.into(),
            ReopenError::Unreadable(e) => AppError::SessionUnreadable {
                id: e.evidence,
                reason: e.source.to_string(),
            },
            ReopenError::NotARunOf { evidence, session } => AppError::SessionUnreadable {
                id: evidence,
                reason: format!("it is not a minimize run of session {session}"),
            },
        }
    }
}

impl From<WatchError> for AppError {
    fn from(error: WatchError) -> AppError {
        AppError::WorkspaceUnreadable {
            path: error.sessions.display().to_string(),
            reason: error.to_string(),
        }
    }
}

impl From<HeldResultError> for AppError {
    fn from(error: HeldResultError) -> AppError {
        match &error {
            HeldResultError::NoResult { evidence_session } => AppError::NoResult {
                evidence_session: evidence_session.clone(),
            },
            HeldResultError::Approve(ApproveRunError::Write(ApproveError::Newer(newer))) => {
                AppError::NewerApproval {
                    reason: error.to_string(),
                    newer: Box::new(NewerApprovalView::of(newer)),
                }
            }
            HeldResultError::NotWritable | HeldResultError::Approve(_) => AppError::ApproveFailed {
                reason: error.to_string(),
            },
            HeldResultError::Export(_) => AppError::ExportFailed {
                reason: error.to_string(),
            },
        }
    }
}

impl Serialize for AppError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.payload().serialize(serializer)
    }
}

// The TypeScript side must see exactly what `Serialize` writes.
impl specta::Type for AppError {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <ErrorPayload as specta::Type>::definition(types)
    }
}

impl From<PictureError> for AppError {
    fn from(error: PictureError) -> Self {
        match error {
            PictureError::InvalidSessionId { id, reason } => {
                AppError::InvalidSessionId { id, reason }
            }
            PictureError::Unavailable(reason) => AppError::ScreenshotUnavailable { reason },
        }
    }
}
