//! The session workspace's on-disk records (docs/design.md §1), as typed values.
//! Every field read from disk is untrusted test data; parsing lives in `session`.

mod app_process;
mod crash;
mod meta;
mod sidecar;
mod step;

pub use app_process::{app_of_process, runs_in_app, side_process};
pub use crash::{Crash, CrashKind};
pub use meta::{AppVersion, SessionMeta, SessionStatus};
pub use sidecar::{
    Confidence, FingerprintAge, MinimizedEntry, Sidecar, LEGACY_FINGERPRINT_VERSION, SIDECAR_FILE,
    SIDECAR_SCHEMA,
};
pub use step::{Step, StepResult};
