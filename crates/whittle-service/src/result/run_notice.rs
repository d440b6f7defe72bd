//! What a run tells the tester besides its attempts, as data: the window words each one
//! in its own language; `Display` is the English the CLI prints. It lives with the result
//! (below the run, which re-exports it) because a finished run's warnings hold its pool
//! notices (`ResultWarning`, issue #42).

use std::fmt;

use serde::{Deserialize, Serialize};
use whittle_core::plan::PlanNotice;

use crate::device_lease::DeviceHolder;
use crate::mask::ShotOmission;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunNotice {
    /// About the replay plan (skipped steps, legacy steps, low coverage).
    Plan { notice: PlanNotice },
    /// Fewer devices than asked could join the pool.
    PoolSmaller {
        asked: u32,
        package: String,
        devices: Vec<String>,
    },
    /// A pool device whose log capture did not start (it replays nothing).
    PoolDeviceLeftOut { device: String, detail: String },
    /// A device that could have joined the pool is held by another run.
    PoolDeviceBusy {
        device: String,
        holder: DeviceHolder,
    },
    /// A device that could have joined the pool is served by a ui server that lacks an
    /// optional tool the plan uses.
    PoolDeviceLacksTool { device: String, tool: String },
    /// An attempt's screenshot was not archived (privacy fails closed).
    ScreenshotOmitted { attempt: u32, why: ShotOmission },
    /// Bookkeeping files that could not be written (the result is unaffected).
    FileNotWritten { file: String, detail: String },
    /// The run goes on from its journal after an interruption: `after_attempts` were
    /// done before, and are not replayed again.
    Resumed { at: String, after_attempts: u32 },
}

impl fmt::Display for RunNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunNotice::Plan { notice } => notice.fmt(f),
            RunNotice::PoolSmaller {
                asked,
                package,
                devices,
            } => write!(
                f,
                "{asked} devices asked for, {} available with {package} installed; replaying on {}",
                devices.len(),
                devices.join(", ")
            ),
            RunNotice::PoolDeviceLeftOut { device, detail } => write!(
                f,
                "device {device} left out of the pool: log capture did not start: {detail}"
            ),
            RunNotice::PoolDeviceBusy { device, holder } => write!(
                f,
                "device {device} left out of the pool: in use by {holder}"
            ),
            RunNotice::PoolDeviceLacksTool { device, tool } => write!(
                f,
                "device {device} left out of the pool: its ui server does not list {tool}, which the path needs"
            ),
            RunNotice::ScreenshotOmitted { attempt, why } => {
                write!(f, "attempt {attempt}: screenshot omitted ({why})")
            }
            RunNotice::FileNotWritten { file, detail } => write!(f, "{file} not written: {detail}"),
            RunNotice::Resumed { at, after_attempts } => write!(
                f,
                "resumed at {at} after {after_attempts} recorded attempts (they are not replayed again)"
            ),
        }
    }
}
