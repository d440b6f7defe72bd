//! What the engine asks its driver to do next.

use serde::{Deserialize, Serialize};

use super::SearchResult;

/// Which part of the Phase 3 (docs/design.md §13) issued a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The live check of the full replayable path.
    Baseline,
    /// One of the two halves of `current`.
    Bisect,
    /// A single deletion tried once inside the search loop.
    OneByOne,
    /// A repeated negative sample of a single deletion in the fixed-point audit.
    Audit,
    /// A repeated positive sample of the final candidate.
    Confirm,
}

/// One live replay the driver must run (after checking the log capture is running).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplayRequest {
    /// The number this replay gets if it actually runs (`attempts + 1`).
    pub attempt: u32,
    pub phase: Phase,
    /// Step indexes to replay after the fixed launch setup, in original order.
    pub candidate: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Replay(ReplayRequest),
    Done(SearchResult),
}
