use std::process::ExitCode;

use whittle_service::api::{RefusalStatus, RunRefusal};
use whittle_service::run::{RunEnd, RunError};

/// docs/design.md §8 exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// A live result was produced.
    Live = 0,
    /// Finished without one: no crash, not reproduced, refused, static only.
    NoResult = 1,
    /// Bad arguments or configuration.
    Usage = 2,
    /// Capture, runtime or server failure (or a cancelled run).
    Infrastructure = 3,
    /// `import --record`: the replay stopped before the flow's end (an element not
    /// found), without a crash: neither passed nor a crash.
    Stopped = 4,
}

impl Exit {
    pub fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    pub fn of_end(end: &RunEnd) -> Exit {
        match end {
            RunEnd::Minimized | RunEnd::Unproven => Exit::Live,
            RunEnd::NotReproduced | RunEnd::Static => Exit::NoResult,
            RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. } | RunEnd::Cancelled => {
                Exit::Infrastructure
            }
        }
    }

    pub fn of_error(error: &RunError) -> Exit {
        Exit::of_refusal(&RunRefusal::of(error))
    }

    /// A run refused or failed before its evidence existed: the request or the
    /// configuration → 2; the session or what it names cannot give a result → 1; the
    /// infrastructure (a device, a server, the file system, a cancel) → 3.
    pub fn of_refusal(refusal: &RunRefusal) -> Exit {
        match refusal {
            RunRefusal::InvalidCount { .. }
            | RunRefusal::InvalidArgument { .. }
            | RunRefusal::ConfigUnusable { .. }
            | RunRefusal::SessionNotFound { .. }
            | RunRefusal::NeedsCrash { .. }
            | RunRefusal::CrashNotFound { .. }
            | RunRefusal::NeedsDevice { .. }
            | RunRefusal::DeviceNotFound { .. }
            // A path with a step the ui server cannot replay: the roles' configuration.
            | RunRefusal::MissingTool { .. }
            | RunRefusal::EvidenceNotFound { .. } => Exit::Usage,
            RunRefusal::SessionUnusable { .. }
            | RunRefusal::NoCrash
            | RunRefusal::NeedsPackage { .. }
            // Still running, already ended, changed since, or unreadable evidence:
            // refused, nothing was replayed.
            | RunRefusal::ResumeRefused { .. } => Exit::NoResult,
            RunRefusal::NoDevice
            // Held by another run: the device is not available now, as with none online.
            | RunRefusal::DeviceBusy { .. }
            | RunRefusal::DeviceLockFailed { .. }
            | RunRefusal::ServerFailed { .. }
            | RunRefusal::Cancelled
            | RunRefusal::EvidenceLockFailed { .. } => Exit::Infrastructure,
            // A server that did not start is infrastructure; a role unassigned, without
            // its tools or refused its token is configuration.
            RunRefusal::ServersUnavailable { .. } => match refusal.status() {
                RefusalStatus::Failed => Exit::Infrastructure,
                RefusalStatus::Refused => Exit::Usage,
            },
        }
    }
}
