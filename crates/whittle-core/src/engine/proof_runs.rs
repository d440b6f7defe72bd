//! How many replays a proof takes (docs/design.md §13): the search, the proof stage,
//! the assessment and the report all count against these two numbers.

/// A single deletion must fail this many times in a row to prove it cannot be deleted.
pub const NEGATIVE_PROOF_RUNS: usize = 3;
/// The final candidate must reproduce this many times to be `final_confirmed`.
pub const HIGH_CONFIDENCE_RUNS: usize = 3;
