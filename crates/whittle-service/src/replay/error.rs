use whittle_core::engine::FailureCause;

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
    /// The typed cause the attempt, the search and the run carry (the source's text is
    /// kept as the detail a server or the device gave).
    pub fn cause(&self) -> FailureCause {
        match self {
            ReplayError::Mcp { step, source } => FailureCause::Tool {
                step: *step,
                detail: source.to_string(),
            },
            ReplayError::Drain(e) => FailureCause::Drain {
                detail: e.to_string(),
            },
            ReplayError::UnknownStep { step } => FailureCause::UnknownStep { step: *step },
        }
    }

    pub(crate) fn mcp(step: Option<u32>) -> impl FnOnce(McpError) -> ReplayError {
        move |source| ReplayError::Mcp { step, source }
    }
}
