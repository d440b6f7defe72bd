//! Phase 4 (docs/design.md §13), `replay(subset)`: one clean, live replay of a candidate on the device,
//! followed by a bounded crash drain and a comparison of EVERY drained crash against the
//! target identity. Expected negatives (no crash, element not found, a different crash)
//! are verdicts; unexpected MCP/device failures are errors, so the engine can never
//! mistake a broken device for "not reproduced".

mod context;
mod drain;
mod error;
mod observe;
mod run;
mod stack_excerpt;
mod target;
mod verdict;
mod wait;

pub use context::ReplayContext;
pub use drain::{drain_crashes, DrainError, DrainLimits, MAX_SCAN_ROUNDS, QUIET_ROUNDS};
pub use error::ReplayError;
pub use observe::{NoObserver, ReplayObserver};
pub use run::{replay, replay_observed, LAUNCH_ANCHOR_TIMEOUT_MS};
pub use stack_excerpt::{stack_excerpt, MAX_STACK_LINES, WITHHELD_LINE};
pub use target::{DegradedIdentity, TargetIdentity};
pub use verdict::{MissReason, ObservedCrash, ReplayVerdict};
pub use wait::{settle, wait_stable, WaitEnd};
