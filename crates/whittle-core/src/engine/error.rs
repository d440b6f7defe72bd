use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// Phase 0 (docs/design.md §13): a zero budget must be refused before any side effect.
    #[error("max_replays must be at least 1 (got {max_replays})")]
    InvalidBudget { max_replays: u32 },
    /// Candidates are keyed by their step indexes, so an index may appear only once.
    #[error("step {step} appears more than once in the replayable steps")]
    DuplicateStep { step: u32 },
    /// The full path must be tried at least once before anything else.
    #[error("baseline tries must be at least 1 (got {tries})")]
    InvalidBaselineTries { tries: u32 },
    /// The flaky strategy's sampling: a confidence strictly between 50 and 100 %, and a
    /// cap of at least the seed's 3 negatives.
    #[error("flaky sampling needs a confidence between 50 and 100 % and a cap of at least 3 (got {confidence_percent} %, cap {cap})")]
    InvalidSampling { confidence_percent: i64, cap: u32 },
}
