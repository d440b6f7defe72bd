//! A doctor's check as data: what was checked, about what, how it went, the specifics in
//! English, and the fix. Front ends render it (the CLI as lines, the app as a list); the
//! `finding` is the stable id a translated front end keys its own wording on, so the
//! English `detail` and `fix` never have to be parsed back.

use serde::Serialize;

/// What kind of thing a check is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CheckName {
    /// The installation's journal key, which seals every run (resume, approval): first,
    /// as the report lists it.
    JournalKey,
    /// How a `url` server is reached (plain HTTP off this machine).
    Http,
    /// One role on one of its servers: starts, and lists the role's tools.
    Role,
    /// The adb program an adb-backed server runs, and its remote serial.
    Adb,
    /// The devices the mobile role lists.
    Device,
    /// The app under test (or the installed apps) on a device.
    App,
    /// A log capture started, listed and stopped on a device.
    Capture,
}

impl CheckName {
    /// The word the CLI prints in its second column.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckName::Http => "http",
            CheckName::Role => "role",
            CheckName::Adb => "adb",
            CheckName::Device => "device",
            CheckName::App => "app",
            CheckName::Capture => "capture",
            CheckName::JournalKey => "journal-key",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Ok,
    /// Works, but the user should know (e.g. readable on the network).
    Warn,
    /// Stops runs until fixed.
    Fail,
}

/// The stable id of what a check found: one per distinct outcome, so the wording (and
/// its translation) belongs to the front end while the decision stays here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    PlainHttp,
    RoleReady,
    /// Ready, but without one of the role's optional tools: paths using it are refused.
    RoleReadyWithoutOptional,
    RoleUnassigned,
    RoleUnknownServer,
    RoleStartFailed,
    RoleUnauthorized,
    RoleMissingTools,
    AdbFound,
    AdbFailed,
    AdbMissing,
    RemoteConnected,
    RemoteNotReady,
    RemoteMissing,
    ServersUnavailable,
    DevicesUnavailable,
    NoAndroidDevice,
    DeviceReady,
    DeviceUnauthorized,
    DeviceNotReady,
    /// Listed, but not Android: shown, never replayed on.
    DeviceNotAndroid,
    AppInstalled,
    AppsCounted,
    AppIsSystem,
    AppMissing,
    AppsUnavailable,
    CaptureRunning,
    CaptureNotRunning,
    CaptureNotStopped,
    CaptureUnavailable,
    JournalKeyReady,
    /// None yet: the first run makes it.
    JournalKeyNotMadeYet,
    JournalKeyDamaged,
    JournalKeyNotPrivate,
    JournalKeyUnusable,
}

/// One line of the doctor's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Check {
    pub name: CheckName,
    /// The role, remote serial, device or package the line is about, when there is one.
    pub subject: Option<String>,
    /// The configured server (key in `mcpServers`) the line is about, when there is one.
    pub server: Option<String>,
    pub status: CheckStatus,
    pub finding: Finding,
    /// What was found, in English, with the specifics (versions, paths, server errors).
    pub detail: String,
    /// What to do about it, in English; `None` when there is nothing to do.
    pub fix: Option<String>,
}

impl Check {
    pub(crate) fn new(name: CheckName, finding: Finding, detail: impl Into<String>) -> Check {
        Check {
            name,
            subject: None,
            server: None,
            status: CheckStatus::Ok,
            finding,
            detail: detail.into(),
            fix: None,
        }
    }

    pub(crate) fn subject(mut self, subject: impl Into<String>) -> Check {
        self.subject = Some(subject.into());
        self
    }

    pub(crate) fn server(mut self, server: Option<String>) -> Check {
        self.server = server;
        self
    }

    pub(crate) fn fail(mut self, fix: impl Into<String>) -> Check {
        self.status = CheckStatus::Fail;
        self.fix = Some(fix.into());
        self
    }

    pub(crate) fn warn(mut self, fix: impl Into<String>) -> Check {
        self.status = CheckStatus::Warn;
        self.fix = Some(fix.into());
        self
    }

    pub fn ok(&self) -> bool {
        self.status != CheckStatus::Fail
    }
}

/// Every check in the order it ran.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DoctorReport {
    pub checks: Vec<Check>,
}

impl DoctorReport {
    /// Nothing failed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(Check::ok)
    }

    /// Nothing of the setup failed and at least one Android device is ready for replays
    /// (the journal key decides what a run's result can become, not whether it runs).
    pub fn device_ready(&self) -> bool {
        self.checks
            .iter()
            .all(|c| c.ok() || c.name == CheckName::JournalKey)
            && self
                .checks
                .iter()
                .any(|c| c.finding == Finding::DeviceReady)
    }

    /// A failure of the setup itself (a role's server, adb), as opposed to the devices
    /// behind it.
    pub fn setup_failed(&self) -> bool {
        self.checks
            .iter()
            .any(|c| !c.ok() && matches!(c.name, CheckName::Role | CheckName::Adb))
    }
}
