//! Why a command failed, typed: the cases of each [`crate::error::AppError`] code the
//! window words from its catalogue (English and 简体中文). A `detail` is only ever text
//! from outside the product (an OS error, a parser's or a server's message) or a nested
//! service error's own sentence where that error has no typed form yet.

use serde::Serialize;
use whittle_core::session::SessionError;
use whittle_service::api::{NextStep, NotProvenHere, ServerProblem};

/// Why the workspace folder cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkspaceCause {
    /// It has no `sessions` folder: not a Whittle workspace.
    NoSessionsFolder,
    /// The OS refused to list it.
    Unreadable { detail: String },
    /// Its changes cannot be followed (the OS watcher refused it).
    NotFollowed { detail: String },
}

/// Why a session (or an evidence session) cannot be opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SessionCause {
    /// No such session folder in the workspace.
    NotFound,
    /// The OS refused to read its folder.
    Unreadable { detail: String },
    /// A file of the session is not what Whittle wrote (typed: file, line, problem).
    Invalid { error: SessionError },
    /// A file of the evidence session cannot be read.
    FileUnreadable { file: String, detail: String },
    /// It is not a minimize run of the session it was opened from.
    NotARunOf { session: String },
}

/// Why Whittle's configuration (`whittle.json`) cannot be used or changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConfigCause {
    /// No `whittle.json` was found: `env` names the variable that points at one,
    /// `expected` is where Whittle looks by default.
    NoConfig { env: String, expected: String },
    /// The OS refused to read the file.
    Unreadable { file: String, detail: String },
    /// The file is not JSON (`detail`: the parser's message).
    NotJson {
        file: String,
        line: u32,
        column: u32,
        detail: String,
    },
    /// A field holds what Whittle cannot use.
    BadField {
        file: String,
        field: String,
        detail: String,
    },
    /// The changed file could not be written.
    NotWritten { file: String, detail: String },
    /// The config has no simulator server to switch back to.
    NoSimulator,
}

/// Why the device servers cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ServersCause {
    /// Roles whose servers did not start, refused the credentials or lack tools.
    NotStarted { problems: Vec<ServerProblem> },
    /// A server failed to answer (`detail`: its own message).
    Failed { detail: String },
}

/// Why the result was not approved (written back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ApproveCause {
    /// The run's result may not be written back (the crash did not reproduce, or the
    /// capture or a server failed).
    NotWritable,
    NotARun {
        evidence: String,
    },
    Running {
        evidence: String,
    },
    NoResult {
        evidence: String,
        detail: String,
    },
    OtherCrash {
        evidence: String,
        crash_id: String,
        asked: String,
    },
    /// The run ended with `status`, which is never written back.
    NotWrittenBack {
        evidence: String,
        status: String,
    },
    /// The evidence does not hold together any more.
    Inconsistent {
        evidence: String,
        detail: String,
    },
    /// Nothing on this machine proves the run (made elsewhere, or without a journal):
    /// `next` re-proves it here.
    NotProvenHere {
        evidence: String,
        why: NotProvenHere,
        next: NextStep,
    },
    ChangedSinceShown {
        evidence: String,
    },
    /// The sidecar file could not be written.
    SidecarUnwritable {
        detail: String,
    },
}

/// Why the bug-ticket bundle (or its ticket text) was not made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExportCause {
    FolderNotAbsolute {
        folder: String,
    },
    FolderUnwritable {
        folder: String,
        detail: String,
    },
    EvidenceNotFound {
        evidence: String,
    },
    ResultUnreadable {
        detail: String,
    },
    /// The run has no live result (the crash did not reproduce).
    NoLiveResult {
        evidence: String,
    },
    /// The run was interrupted, is still going, or the recording caught no crash.
    NoResultFile {
        evidence: String,
    },
    BundleFailed {
        detail: String,
    },
    /// The run's files were changed since its journal sealed them: no ticket is made of
    /// what approval refuses.
    EvidenceChanged {
        evidence: String,
        detail: String,
    },
}

/// Why a folder could not be shown in the file manager.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RevealCause {
    /// Only files Whittle wrote in this window can be shown.
    NotAllowed,
    /// This system has no log folder for Whittle.
    NoLogFolder,
    /// The file manager did not start (`detail`: the OS error).
    NotOpened { detail: String },
}

/// Why a flow was not imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImportCause {
    /// The flow file was not given as a full path.
    FileNotAbsolute { file: String },
    /// A variable name is not letters, digits and `_`.
    VariableName { name: String },
    /// The session name asked for is not one name of letters, digits, `.`, `_`, `-`.
    BadName { name: String },
    /// The flow does not name its app (a Robo script never does) and no package was given.
    NoPackage,
    /// The package given is a process of an app (`com.acme:sync`), not the app.
    ProcessNotPackage { process: String, package: String },
    /// The flow names one app and the package field another.
    PackageConflict { in_file: String, given: String },
    /// The flow cannot be read or turned into a session (the importer's sentence, with
    /// file, line and field).
    Failed { detail: String },
}
