//! The reduction engine: Phase 3 (docs/design.md §13) (the `seed` strategy, a ddmin
//! variant with a repeated-sampling fixed-point audit and final confirmation). No I/O, no clock, no randomness: the
//! driver asks [`Engine::next_request`], replays the candidate live and answers with
//! [`Engine::record`]. Candidates are step indexes in original order; nothing else.
//!
//! One [`Ledger`] keeps the books (budget, attempts, flags, failures, outcome history,
//! pending request, phase, `current`); the baseline, the fixed-point audit and the
//! confirmation are shared; a strategy supplies only its [`SearchStage`].

mod error;
mod failure;
mod flags;
pub(crate) mod history;
mod ledger;
mod machine;
mod outcome;
mod proof_runs;
mod proof_stage;
mod request;
mod result;
mod snapshot;
mod stage;
mod stop;

pub use error::EngineError;
pub use failure::FailureCause;
pub use flags::SearchFlags;
pub(crate) use ledger::without;
pub use ledger::Ledger;
pub use machine::Engine;
pub use outcome::{MissReason, ReplayOutcome};
pub use proof_runs::{HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};
pub use request::{Phase, ReplayRequest, Request};
pub use result::{CandidateHistory, ProofRow, SearchResult, StatisticalProof};
pub use snapshot::EngineSnapshot;
pub use stage::{Move, SearchStage};
pub use stop::SearchStop;
