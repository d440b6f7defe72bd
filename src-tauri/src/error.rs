//! The one error type commands return. The UI sees `{ code, message }`: `code` is a
//! stable machine string to branch on, `message` a sentence a tester understands.

use serde::Serialize;

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
    RunRefused { reason: String },
    #[error("there is no result of evidence session {evidence_session} to approve or export in this window")]
    NoResult { evidence_session: String },
    #[error("the result was not written: {reason}")]
    ApproveFailed { reason: String },
    #[error("the bug-ticket bundle was not exported: {reason}")]
    ExportFailed { reason: String },
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
    ExportFailed,
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
            AppError::ExportFailed { .. } => ErrorCode::ExportFailed,
            AppError::ScreenshotUnavailable { .. } => ErrorCode::ScreenshotUnavailable,
            AppError::RevealFailed { .. } => ErrorCode::RevealFailed,
            AppError::DiscardFailed { .. } => ErrorCode::DiscardFailed,
            AppError::ImportFailed { .. } => ErrorCode::ImportFailed,
            AppError::RecordFailed { .. } => ErrorCode::RecordFailed,
        }
    }

    pub fn payload(&self) -> ErrorPayload {
        ErrorPayload {
            code: self.code(),
            message: self.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_code_and_message() {
        let err = AppError::SessionUnreadable {
            id: "2026-05-16_120000_broken-export".into(),
            reason: "steps.jsonl line 4: not valid JSON".into(),
        };
        let json = serde_json::to_value(&err).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "code": "session_unreadable",
                "message": "session 2026-05-16_120000_broken-export cannot be opened: steps.jsonl line 4: not valid JSON",
            })
        );
    }

    #[test]
    fn every_variant_has_its_own_code() {
        let all = [
            AppError::WorkspaceUnreadable {
                path: "/w".into(),
                reason: "r".into(),
            },
            AppError::InvalidSessionId {
                id: "..".into(),
                reason: "r".into(),
            },
            AppError::SessionUnreadable {
                id: "s".into(),
                reason: "r".into(),
            },
            AppError::PlanUnavailable {
                crash_id: "c1".into(),
                reason: "r".into(),
            },
            AppError::ConfigUnavailable { reason: "r".into() },
            AppError::ServersUnavailable { reason: "r".into() },
            AppError::RunInProgress,
            AppError::RunRefused { reason: "r".into() },
            AppError::NoResult {
                evidence_session: "e".into(),
            },
            AppError::ApproveFailed { reason: "r".into() },
            AppError::ExportFailed { reason: "r".into() },
            AppError::ScreenshotUnavailable { reason: "r".into() },
            AppError::RevealFailed {
                path: "/p".into(),
                reason: "r".into(),
            },
            AppError::ImportFailed { reason: "r".into() },
            AppError::RecordFailed { reason: "r".into() },
        ];
        let codes: Vec<String> = all
            .iter()
            .map(|e| {
                serde_json::to_value(e).unwrap()["code"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(
            codes,
            [
                "workspace_unreadable",
                "invalid_session_id",
                "session_unreadable",
                "plan_unavailable",
                "config_unavailable",
                "servers_unavailable",
                "run_in_progress",
                "run_refused",
                "no_result",
                "approve_failed",
                "export_failed",
                "screenshot_unavailable",
                "reveal_failed",
                "import_failed",
                "record_failed",
            ]
        );
    }
}
