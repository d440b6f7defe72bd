//! How a search ended, as the engine reports it: the four flags of the reduction,
//! defined once. [`super::SearchResult`] embeds them, and the application layer's
//! `--json` object and `result.json` embed the same type, flattened so that every one
//! of those JSON shapes keeps the four fields at the top level.

use serde::{Deserialize, Serialize};

/// How the search ended, as the engine reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SearchFlags {
    /// No single deletion of the final path reproduced.
    pub fixed_point_reached: bool,
    /// The final path reproduced on every one of its confirmation replays.
    pub final_confirmed: bool,
    /// Some path both reproduced and missed (a latch; docs/design.md).
    pub flaky_observed: bool,
    /// The replay budget ran out before the search finished.
    pub budget_exhausted: bool,
}
