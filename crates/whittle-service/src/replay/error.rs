use super::DrainError;
use crate::client::McpError;

/// A replay that could not produce a trustworthy verdict. The engine records it as a
/// runtime error, never as "not reproduced".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("replay step {step:?}: {source}")]
    Mcp {
        /// The candidate step being replayed, if the failure happened during one.
        step: Option<u32>,
        #[source]
        source: McpError,
    },
    #[error(transparent)]
    Drain(#[from] DrainError),
    #[error("step {step} is not in the replay plan")]
    UnknownStep { step: u32 },
}

impl ReplayError {
    pub(crate) fn mcp(step: Option<u32>) -> impl FnOnce(McpError) -> ReplayError {
        move |source| ReplayError::Mcp { step, source }
    }
}
