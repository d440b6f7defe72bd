use std::process::ExitCode;

use whittle_service::run::{LockError, ResumeError, RunEnd, RunError};

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
        match error {
            RunError::InvalidArgument(_)
            | RunError::Resolve(_)
            | RunError::NeedCrashChoice { .. }
            | RunError::UnknownCrash { .. }
            | RunError::NeedDeviceChoice { .. }
            | RunError::DeviceNotFound { .. } => Exit::Usage,
            RunError::Session(_)
            | RunError::NoCrash { .. }
            | RunError::NeedPackageConfirmation { .. }
            | RunError::Plan(_) => Exit::NoResult,
            RunError::NoDevice | RunError::Mcp(_) | RunError::Cancelled => Exit::Infrastructure,
            RunError::Resume(e) => match e {
                ResumeError::Resolve(_) => Exit::Usage,
                ResumeError::Lock(LockError::Io { .. }) => Exit::Infrastructure,
                // Still running, already ended, changed since, or unreadable evidence:
                // refused, nothing was replayed.
                _ => Exit::NoResult,
            },
        }
    }
}
