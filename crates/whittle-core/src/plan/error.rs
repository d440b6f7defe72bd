use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    #[error("the crash's repro path names step {index}, but the session has no step {index}")]
    StepMissing { index: u32 },
    #[error("the crash's repro path lists step {index} twice")]
    DuplicateIndex { index: u32 },
}
