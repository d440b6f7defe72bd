use whittle_contract::analyzer::{
    ComputeSignatureArgs, SessionAnalysis, SessionDirArgs, Signature, StaticSuggestion,
    SuggestMinimalPathArgs, ANALYZE_SESSION, COMPUTE_SIGNATURE, SUGGEST_MINIMAL_PATH,
};
use whittle_contract::Role;
use whittle_core::model::CrashKind;

use crate::client::{Hub, McpError};

/// The `analyzer` role: crash signatures and grouping.
#[derive(Clone, Copy)]
pub struct Analyzer<'a> {
    hub: &'a Hub,
}

/// `hub.analyzer()`, written beside the facade so the hub need not know its facades.
impl Hub {
    pub fn analyzer(&self) -> Analyzer<'_> {
        Analyzer { hub: self }
    }
}

impl<'a> Analyzer<'a> {
    pub async fn compute_signature(
        self,
        stack: &str,
        kind: Option<CrashKind>,
    ) -> Result<Signature, McpError> {
        let args = ComputeSignatureArgs {
            stack: stack.to_string(),
            kind,
        };
        self.hub
            .call_typed(Role::Analyzer, COMPUTE_SIGNATURE, &args, 0)
            .await
    }

    pub async fn analyze_session(self, session_dir: &str) -> Result<SessionAnalysis, McpError> {
        let args = SessionDirArgs {
            session_dir: session_dir.to_string(),
        };
        self.hub
            .call_typed(Role::Analyzer, ANALYZE_SESSION, &args, 0)
            .await
    }

    pub async fn suggest_minimal_path(
        self,
        session_dir: &str,
        crash_id: &str,
    ) -> Result<StaticSuggestion, McpError> {
        let args = SuggestMinimalPathArgs {
            session_dir: session_dir.to_string(),
            crash_id: crash_id.to_string(),
        };
        self.hub
            .call_typed(Role::Analyzer, SUGGEST_MINIMAL_PATH, &args, 0)
            .await
    }
}
