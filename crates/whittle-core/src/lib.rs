//! Whittle's pure core. Nothing here performs I/O except the explicitly named
//! workspace readers; the reduction engine has no I/O, no clock and no randomness.

pub mod assessment;
pub mod bound;
pub mod engine;
pub mod import;
pub mod inspect;
pub mod lenient;
pub mod log_ceiling;
pub mod model;
pub mod nesting;
pub mod parallel;
pub mod password_words;
pub mod plan;
pub mod rate;
pub mod redact;
pub mod run_end;
pub mod sensitive;
pub mod session;
pub mod signature;
pub mod strategy;
pub mod workspace;

pub use engine::{
    CandidateHistory, Engine, EngineError, EngineSnapshot, Phase, ProofRow, ReplayOutcome,
    ReplayRequest, Request, SearchFlags, SearchResult, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};
