//! A resume of an interrupted run, as its journal records it and its result lists it.

use serde::{Deserialize, Serialize};

/// A resume of the run: when, and how many attempts were already done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResumeMark {
    pub at: String,
    pub after_attempts: u32,
}
