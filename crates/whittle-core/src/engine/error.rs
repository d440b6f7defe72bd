use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// Seed Phase 0: a zero budget must be refused before any side effect.
    #[error("max_replays must be at least 1 (got {max_replays})")]
    InvalidBudget { max_replays: u32 },
    /// Candidates are keyed by their step indexes, so an index may appear only once.
    #[error("step {step} appears more than once in the replayable steps")]
    DuplicateStep { step: u32 },
}
