//! The reduction engine: seed Phase 3 (ddmin variant with a repeated-sampling
//! fixed-point audit and final confirmation). No I/O, no clock, no randomness: the
//! driver asks [`Engine::next_request`], replays the candidate live and answers with
//! [`Engine::record`]. Candidates are step indexes in original order; nothing else.

mod error;
pub(crate) mod history;
mod machine;
mod outcome;
mod request;
mod result;
mod snapshot;

pub use error::EngineError;
pub use machine::{Engine, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};
pub use outcome::Outcome;
pub use request::{Phase, ReplayRequest, Request};
pub use result::{CandidateHistory, ProofRow, SearchResult};
pub use snapshot::EngineSnapshot;
