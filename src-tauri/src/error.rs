//! The one error type commands return. The window receives `{ code, …typed fields,
//! message }`: `code` is a stable machine string to branch on, the typed fields (ids,
//! paths, the typed cause with its own `kind`) are what the window words in its
//! catalogue, in English and 简体中文; `message` is the English sentence, for logs and for
//! a front end that does not word the error itself. A `detail` only ever carries text
//! from outside the product (an OS error, a parser's or a server's message). A refused
//! run carries `refusal`, the typed case with its data (the devices or crashes to choose
//! from), so the window can offer the choice; an approval that would replace a newer one
//! carries `newer_approval`, both entries, so the window can ask.

use serde::Serialize;

use whittle_core::session::{ResolveError, SessionIdError};
use whittle_core::workspace::WorkspaceError;
use whittle_service::api::pictures::PictureError;
use whittle_service::api::{
    ApproveError, ApproveRunError, ConfigEditError, ConfigError, DevicesError, EvidenceExportError,
    ExportRunError, HeldResultError, HubError, ImportFailure, ImportRefusal, InvalidCount,
    NotApprovable, RecordFailure, RecordedRunError, ReopenError, ReproofRefusal, RunError,
    RunFailure, RunInProgress, RunRefusal, SessionReadError, UnreadableEvidence, WatchError,
};

use crate::error_cause::{
    ApproveCause, ConfigCause, ExportCause, ImportCause, RevealCause, ServersCause, SessionCause,
    WorkspaceCause,
};
use crate::newer_approval::NewerApprovalView;

/// Every variant's English sentence is its `Display`; its fields are what the window
/// gets. Fields marked `serde(skip)` only feed the sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, specta::Type)]
// `remote = "Self"`: the derived Serialize is `AppError::serialize`, which the wire
// impl below wraps to add `message` (one derive, so the JSON and the TypeScript type
// cannot drift apart).
#[serde(remote = "Self", tag = "code", rename_all = "snake_case")]
pub enum AppError {
    #[error("the workspace folder {path} cannot be read: {}", workspace_words(.cause))]
    WorkspaceUnreadable { path: String, cause: WorkspaceCause },
    #[error("“{id}” is not a valid session id: {problem}")]
    InvalidSessionId { id: String, problem: SessionIdError },
    #[error("session {id} cannot be opened: {}", session_words(.cause))]
    SessionUnreadable { id: String, cause: SessionCause },
    #[error("the replay plan for crash {crash_id} cannot be built: {detail}")]
    PlanUnavailable { crash_id: String, detail: String },
    #[error("Whittle's configuration cannot be used: {}", config_words(.cause))]
    ConfigUnavailable { cause: ConfigCause },
    #[error("the device servers did not start: {reason}")]
    ServersUnavailable {
        #[serde(skip)]
        reason: String,
        cause: ServersCause,
    },
    #[error("a minimize run is already in progress; cancel it or wait for it to end")]
    RunInProgress,
    #[error("the run cannot start: {reason}")]
    RunRefused {
        #[serde(skip)]
        reason: String,
        refusal: RunRefusal,
    },
    #[error("there is no result of evidence session {evidence_session} to approve or export in this window")]
    NoResult { evidence_session: String },
    #[error("the result was not written: {reason}")]
    ApproveFailed {
        #[serde(skip)]
        reason: String,
        cause: ApproveCause,
    },
    #[error("the result was not written: {reason}")]
    NewerApproval {
        #[serde(skip)]
        reason: String,
        /// Boxed: both entries' texts would make every command's error large.
        #[serde(rename = "newer_approval")]
        newer: Box<NewerApprovalView>,
    },
    #[error("the bug-ticket bundle was not exported: {reason}")]
    ExportFailed {
        #[serde(skip)]
        reason: String,
        cause: ExportCause,
    },
    #[error("the clipboard refused the text: {detail}")]
    ClipboardRefused { detail: String },
    #[error("the screenshot cannot be used: {}", picture_words(.cause))]
    ScreenshotUnavailable { cause: PictureError },
    #[error("{path} cannot be shown: {}", reveal_words(.cause))]
    RevealFailed { path: String, cause: RevealCause },
    /// `detail`: the resume check's sentence (its typed form is the run's refusal).
    #[error("the interrupted run {evidence_session} was not discarded: {detail}")]
    DiscardFailed {
        evidence_session: String,
        detail: String,
    },
    #[error("the flow was not imported: {}", import_words(.cause))]
    ImportFailed { cause: ImportCause },
    /// `detail`: the recorder's sentence (a device's or the app's failure).
    #[error("the flow was not recorded: {detail}")]
    RecordFailed { detail: String },
}

/// Stable codes; renaming one is a breaking change for the UI. The wire's `code`.
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

/// The wire shape of an [`AppError`]: its code and typed fields, and its sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct ErrorPayload {
    // `AppError::serialize` is the derived shape of `AppError`'s type.
    #[serde(flatten, serialize_with = "AppError::serialize")]
    #[specta(type = AppError)]
    pub error: AppError,
    /// The English sentence, for logs; the window words the error from its fields.
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

    /// A run to re-prove that has nothing to start from here.
    pub fn reproof_refused(error: &ReproofRefusal) -> AppError {
        AppError::RunRefused {
            reason: error.to_string(),
            refusal: RunRefusal::of_reproof(error),
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
            RunFailure::Servers(e) => AppError::servers(e),
            RunFailure::Run(e) => AppError::run_refused(e),
        }
    }

    /// Servers that did not start, role by role.
    pub fn servers(error: &HubError) -> AppError {
        let problems = match RunRefusal::of_servers(error) {
            RunRefusal::ServersUnavailable { problems } => problems,
            _ => Vec::new(),
        };
        AppError::ServersUnavailable {
            reason: error.to_string(),
            cause: ServersCause::NotStarted { problems },
        }
    }

    /// `whittle.json` that cannot be loaded.
    pub fn config(error: &ConfigError) -> AppError {
        let cause = match error {
            ConfigError::Read { file, source } => ConfigCause::Unreadable {
                file: file.display().to_string(),
                detail: source.to_string(),
            },
            ConfigError::Syntax {
                file,
                line,
                column,
                message,
            } => ConfigCause::NotJson {
                file: file.display().to_string(),
                line: u32::try_from(*line).unwrap_or(u32::MAX),
                column: u32::try_from(*column).unwrap_or(u32::MAX),
                detail: message.clone(),
            },
            ConfigError::Field {
                file,
                field,
                message,
            } => ConfigCause::BadField {
                file: file.display().to_string(),
                field: field.clone(),
                detail: message.clone(),
            },
        };
        AppError::ConfigUnavailable { cause }
    }

    pub fn payload(&self) -> ErrorPayload {
        ErrorPayload {
            error: self.clone(),
            message: self.to_string(),
        }
    }
}

fn workspace_words(cause: &WorkspaceCause) -> String {
    match cause {
        WorkspaceCause::NoSessionsFolder => {
            "it has no sessions folder, so it is not a Whittle workspace".to_owned()
        }
        WorkspaceCause::Unreadable { detail } => detail.clone(),
        WorkspaceCause::NotFollowed { detail } => {
            format!("its changes cannot be followed: {detail}")
        }
    }
}

fn session_words(cause: &SessionCause) -> String {
    match cause {
        SessionCause::NotFound => "there is no such session folder in the workspace".to_owned(),
        SessionCause::Unreadable { detail } => detail.clone(),
        SessionCause::Invalid { error } => error.to_string(),
        SessionCause::FileUnreadable { file, detail } => format!("{file} cannot be read: {detail}"),
        SessionCause::NotARunOf { session } => {
            format!("it is not a minimize run of session {session}")
        }
    }
}

fn config_words(cause: &ConfigCause) -> String {
    match cause {
        ConfigCause::NoConfig { env, expected } => {
            format!("no whittle.json was found; set {env} to its path or create {expected}")
        }
        ConfigCause::Unreadable { file, detail } => format!("cannot read {file}: {detail}"),
        ConfigCause::NotJson {
            file,
            line,
            column,
            detail,
        } => format!("{file} is not valid JSON (line {line}, column {column}): {detail}"),
        ConfigCause::BadField {
            file,
            field,
            detail,
        } => format!("{file}: field `{field}`: {detail}"),
        ConfigCause::NotWritten { file, detail } => format!("cannot write {file}: {detail}"),
        ConfigCause::NoSimulator => {
            "the config has no simulator server to switch back to".to_owned()
        }
    }
}

fn picture_words(cause: &PictureError) -> String {
    match cause {
        PictureError::InvalidSessionId { id, problem } => {
            format!("{id:?} is not a session name: {problem}")
        }
        PictureError::Unavailable { detail } => detail.clone(),
    }
}

fn reveal_words(cause: &RevealCause) -> String {
    match cause {
        RevealCause::NotAllowed => {
            "only files Whittle wrote in this window can be shown".to_owned()
        }
        RevealCause::NoLogFolder => "this system has no log folder for Whittle".to_owned(),
        RevealCause::NotOpened { detail } => {
            format!("the file manager could not be opened: {detail}")
        }
    }
}

fn import_words(cause: &ImportCause) -> String {
    match cause {
        ImportCause::FileNotAbsolute { file } => format!("choose the flow file (got “{file}”)"),
        ImportCause::VariableName { name } => format!(
            "“{name}” is not a variable name: letters, digits and _, not starting with a digit"
        ),
        ImportCause::BadName { name } => {
            format!("session name “{name}” must be one name of letters, digits, '.', '_' and '-'")
        }
        ImportCause::NoPackage => "the flow does not name the app: give its package".to_owned(),
        ImportCause::ProcessNotPackage { process, package } => {
            format!("{process} is a process of {package}, not an app: give {package}")
        }
        ImportCause::PackageConflict { in_file, given } => {
            format!("the flow is for {in_file}, but the package given is {given}")
        }
        ImportCause::Failed { detail } => detail.clone(),
    }
}

impl From<SessionReadError> for AppError {
    fn from(error: SessionReadError) -> AppError {
        match error {
            SessionReadError::Workspace { workspace, source } => AppError::WorkspaceUnreadable {
                path: workspace.display().to_string(),
                cause: match source {
                    WorkspaceError::NoSessionsFolder { .. } => WorkspaceCause::NoSessionsFolder,
                    other @ WorkspaceError::Unreadable { .. } => WorkspaceCause::Unreadable {
                        detail: other.to_string(),
                    },
                },
            },
            SessionReadError::InvalidId { id, source } => AppError::InvalidSessionId {
                id,
                problem: source,
            },
            SessionReadError::NotFound { id, source } => match source {
                ResolveError::InvalidId(problem) => AppError::InvalidSessionId { id, problem },
                ResolveError::Io { source, .. } => AppError::SessionUnreadable {
                    id,
                    cause: SessionCause::Unreadable {
                        detail: source.to_string(),
                    },
                },
                ResolveError::RelativePath
                | ResolveError::NoSessionsFolder { .. }
                | ResolveError::NotFound { .. }
                | ResolveError::OutsideWorkspace { .. } => AppError::SessionUnreadable {
                    id,
                    cause: SessionCause::NotFound,
                },
            },
            SessionReadError::Unreadable { id, source } => AppError::SessionUnreadable {
                id,
                cause: SessionCause::Invalid { error: source },
            },
        }
    }
}

impl From<UnreadableEvidence> for AppError {
    fn from(error: UnreadableEvidence) -> AppError {
        AppError::SessionUnreadable {
            id: error.evidence,
            cause: match error.source {
                RecordedRunError::Session(error) => SessionCause::Invalid { error },
                RecordedRunError::Open { file, source } => SessionCause::FileUnreadable {
                    file: file.to_owned(),
                    detail: source.to_string(),
                },
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
        let cause = match error {
            ConfigEditError::Read { path, source } => ConfigCause::Unreadable {
                file: path.display().to_string(),
                detail: source.to_string(),
            },
            ConfigEditError::NotJson { path, source } => ConfigCause::NotJson {
                file: path.display().to_string(),
                line: u32::try_from(source.line()).unwrap_or(u32::MAX),
                column: u32::try_from(source.column()).unwrap_or(u32::MAX),
                detail: source.to_string(),
            },
            ConfigEditError::Invalid(e) => return AppError::config(&e),
            ConfigEditError::Write { path, source } => ConfigCause::NotWritten {
                file: path.display().to_string(),
                detail: source.to_string(),
            },
            ConfigEditError::NoSimulator => ConfigCause::NoSimulator,
        };
        AppError::ConfigUnavailable { cause }
    }
}

impl From<ReopenError> for AppError {
    fn from(error: ReopenError) -> AppError {
        match error {
            ReopenError::Session(e) => e.into(),
            ReopenError::Unreadable(e) => e.into(),
            ReopenError::NotARunOf { evidence, session } => AppError::SessionUnreadable {
                id: evidence,
                cause: SessionCause::NotARunOf { session },
            },
        }
    }
}

impl From<WatchError> for AppError {
    fn from(error: WatchError) -> AppError {
        AppError::WorkspaceUnreadable {
            path: error.sessions.display().to_string(),
            cause: WorkspaceCause::NotFollowed {
                detail: error.source.to_string(),
            },
        }
    }
}

impl From<HeldResultError> for AppError {
    fn from(error: HeldResultError) -> AppError {
        let reason = error.to_string();
        let approve_failed = |cause| AppError::ApproveFailed {
            reason: reason.clone(),
            cause,
        };
        match error {
            HeldResultError::NoResult { evidence_session } => {
                AppError::NoResult { evidence_session }
            }
            HeldResultError::NotWritable => approve_failed(ApproveCause::NotWritable),
            HeldResultError::Approve(e) => match e {
                // The session itself failed: its own code, as when it is opened.
                ApproveRunError::Session(e) => e.into(),
                ApproveRunError::Unreadable(e) => e.into(),
                ApproveRunError::Write(ApproveError::Newer(newer)) => AppError::NewerApproval {
                    reason: reason.clone(),
                    newer: Box::new(NewerApprovalView::of(&newer)),
                },
                other => approve_failed(approve_cause(other)),
            },
            HeldResultError::Export(e) => AppError::ExportFailed {
                reason: reason.clone(),
                cause: export_run_cause(e),
            },
        }
    }
}

fn approve_cause(error: ApproveRunError) -> ApproveCause {
    match error {
        ApproveRunError::NotARun { evidence } => ApproveCause::NotARun { evidence },
        ApproveRunError::Running { evidence } => ApproveCause::Running { evidence },
        ApproveRunError::NoResult { evidence, detail } => {
            ApproveCause::NoResult { evidence, detail }
        }
        ApproveRunError::OtherCrash {
            evidence,
            crash_id,
            asked,
        } => ApproveCause::OtherCrash {
            evidence,
            crash_id,
            asked,
        },
        ApproveRunError::NotApprovable { evidence, source } => match source {
            NotApprovable::Ended { end } => ApproveCause::NotWrittenBack {
                evidence,
                status: end.status().to_owned(),
            },
            NotApprovable::NotProvenHere { why, next } => ApproveCause::NotProvenHere {
                evidence,
                why,
                next,
            },
            NotApprovable::Inconsistent(e) => ApproveCause::Inconsistent {
                evidence,
                detail: e.to_string(),
            },
        },
        ApproveRunError::ChangedSinceShown { evidence } => {
            ApproveCause::ChangedSinceShown { evidence }
        }
        ApproveRunError::Write(ApproveError::NotAllowed) => ApproveCause::NotWritable,
        ApproveRunError::Write(ApproveError::Sidecar(e)) => ApproveCause::SidecarUnwritable {
            detail: e.to_string(),
        },
        // Mapped by the caller to their own codes; kept total here.
        ApproveRunError::Write(e @ ApproveError::Newer(_)) => ApproveCause::SidecarUnwritable {
            detail: e.to_string(),
        },
        e @ (ApproveRunError::Session(_) | ApproveRunError::Unreadable(_)) => {
            ApproveCause::Inconsistent {
                evidence: String::new(),
                detail: e.to_string(),
            }
        }
    }
}

fn export_run_cause(error: ExportRunError) -> ExportCause {
    match error {
        ExportRunError::NotAbsolute(folder) => ExportCause::FolderNotAbsolute {
            folder: folder.display().to_string(),
        },
        ExportRunError::Folder { folder, source } => ExportCause::FolderUnwritable {
            folder: folder.display().to_string(),
            detail: source.to_string(),
        },
        ExportRunError::Export(e) => export_cause(e),
    }
}

/// Why a bundle (or its ticket text) was not made.
pub fn export_cause(error: EvidenceExportError) -> ExportCause {
    match error {
        EvidenceExportError::Resolve(e) => ExportCause::EvidenceNotFound {
            evidence: match e {
                ResolveError::NotFound { path } | ResolveError::OutsideWorkspace { path, .. } => {
                    path.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                }
                _ => String::new(),
            },
        },
        EvidenceExportError::Result(e) => ExportCause::ResultUnreadable {
            detail: e.to_string(),
        },
        EvidenceExportError::NoResult(evidence) => ExportCause::NoLiveResult { evidence },
        EvidenceExportError::NoResultFile(evidence) => ExportCause::NoResultFile { evidence },
        EvidenceExportError::Changed { evidence, source } => ExportCause::EvidenceChanged {
            evidence,
            detail: source.to_string(),
        },
        EvidenceExportError::Export(e) => ExportCause::BundleFailed {
            detail: e.to_string(),
        },
    }
}

impl AppError {
    /// A bundle or its ticket text that was not made.
    pub fn export_failed(error: EvidenceExportError) -> AppError {
        AppError::ExportFailed {
            reason: error.to_string(),
            cause: export_cause(error),
        }
    }

    /// Devices that could not be listed.
    pub fn devices(error: &DevicesError) -> AppError {
        match error {
            DevicesError::Servers(e) => AppError::servers(e),
            DevicesError::List(e) => AppError::ServersUnavailable {
                reason: e.to_string(),
                cause: ServersCause::Failed {
                    detail: e.to_string(),
                },
            },
        }
    }

    /// A recording that did not happen.
    pub fn record_failed(error: &RecordFailure) -> AppError {
        match error {
            RecordFailure::Servers(e) => AppError::servers(e),
            RecordFailure::Record(e) => AppError::RecordFailed {
                detail: e.to_string(),
            },
        }
    }

    /// A flow that was not imported.
    pub fn import_failed(error: &ImportRefusal) -> AppError {
        AppError::ImportFailed {
            cause: match error {
                ImportRefusal::NotAbsolute(file) => {
                    ImportCause::FileNotAbsolute { file: file.clone() }
                }
                ImportRefusal::VariableName(name) => {
                    ImportCause::VariableName { name: name.clone() }
                }
                ImportRefusal::Import(ImportFailure::BadName(name)) => {
                    ImportCause::BadName { name: name.clone() }
                }
                ImportRefusal::Import(ImportFailure::NoPackage { .. }) => ImportCause::NoPackage,
                ImportRefusal::Import(ImportFailure::ProcessNotPackage { process, package }) => {
                    ImportCause::ProcessNotPackage {
                        process: process.clone(),
                        package: package.clone(),
                    }
                }
                ImportRefusal::Import(ImportFailure::PackageConflict {
                    in_file, given, ..
                }) => ImportCause::PackageConflict {
                    in_file: in_file.clone(),
                    given: given.clone(),
                },
                ImportRefusal::Import(e) => ImportCause::Failed {
                    detail: e.to_string(),
                },
            },
        }
    }
}

// What a command's error serializes to: the typed case (`AppError::serialize`, derived)
// and its English sentence.
impl Serialize for AppError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            #[serde(flatten, serialize_with = "AppError::serialize")]
            error: &'a AppError,
            message: String,
        }
        Wire {
            error: self,
            message: self.to_string(),
        }
        .serialize(serializer)
    }
}

impl From<PictureError> for AppError {
    fn from(error: PictureError) -> Self {
        match error {
            PictureError::InvalidSessionId { id, problem } => {
                AppError::InvalidSessionId { id, problem }
            }
            cause @ PictureError::Unavailable { .. } => AppError::ScreenshotUnavailable { cause },
        }
    }
}
