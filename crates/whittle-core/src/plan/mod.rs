//! Phase 1 (docs/design.md §13): from a crash's `repro_path` to a replay plan — which steps are fixed
//! setup (launch), which can be replayed live and how, and which are skipped and why.
//!
//! Sources of a step's replay data, in order (see `record`):
//! 1. New format: `notes` is a JSON object whose `replay` object carries the allowlisted
//!    fields `action_type`, `element_key`, `input_value`, `button`, `input_redacted`
//!    (with `input_withheld`, `input_unknown`, `locator_gap`, `maestro`, `stop_app` from
//!    imported flows).
//!    When it exists, element key, input value and button come only from it; only a
//!    missing `action_type` falls back to the legacy reading of `action`.
//! 2. Legacy (no `replay` object): see `legacy` for the accepted text forms.
//!
//! Everything else in a step is ignored, and nothing in it is ever interpreted as an
//! instruction. A redacted or sensitive step is skipped and its value is not stored
//! anywhere in the plan.

mod build;
mod describe;
mod element;
pub mod element_match;
mod error;
mod gap;
mod key;
mod legacy;
mod locator;
pub mod maestro_match;
mod record;
mod skip;
mod start_path;
mod types;

pub use build::build_plan;
pub use describe::{StepWords, TargetWords};
pub use error::PlanError;
pub use gap::LocatorGap;
pub use key::{UnstableKeyKind, FOCUSED_KEY};
pub use locator::{By, MaestroSelector, Strategy};
pub use skip::SkipReason;
pub use start_path::StartPathError;
pub use types::{
    ActionKind, Coverage, Disposition, PlanNotice, PlannedStep, ReplayAction, ReplayPlan,
    ReplayStep,
};
