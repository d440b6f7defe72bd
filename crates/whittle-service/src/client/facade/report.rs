use serde_json::{Map, Value};
use whittle_contract::report::{
    FinalizeArgs, FinalizeResult, ListSessionsResult, RecordStepArgs, RecordStepResult,
    SessionIdArgs, SessionPath, StartSessionArgs, FINALIZE, GET_SESSION_PATH, LIST_SESSIONS,
    RECORD_STEP, START_SESSION,
};
use whittle_contract::{NoArgs, Role};
use whittle_core::model::SessionStatus;

use crate::client::{Hub, McpError};

/// The `report` role: the session store.
#[derive(Clone, Copy)]
pub struct Report<'a> {
    hub: &'a Hub,
}

/// `hub.report()`, written beside the facade so the hub need not know its facades.
impl Hub {
    pub fn report(&self) -> Report<'_> {
        Report { hub: self }
    }
}

impl<'a> Report<'a> {
    pub async fn list_sessions(self) -> Result<ListSessionsResult, McpError> {
        self.hub
            .call_typed(Role::Report, LIST_SESSIONS, &NoArgs {}, 0)
            .await
    }

    pub async fn get_session_path(self, session_id: &str) -> Result<SessionPath, McpError> {
        let args = SessionIdArgs {
            session_id: session_id.to_string(),
        };
        self.hub
            .call_typed(Role::Report, GET_SESSION_PATH, &args, 0)
            .await
    }

    pub async fn start_session(
        self,
        name: &str,
        extra: Map<String, Value>,
    ) -> Result<SessionPath, McpError> {
        let args = StartSessionArgs {
            name: name.to_string(),
            extra,
        };
        self.hub
            .call_typed(Role::Report, START_SESSION, &args, 0)
            .await
    }

    pub async fn record_step(self, args: RecordStepArgs) -> Result<RecordStepResult, McpError> {
        self.hub
            .call_typed(Role::Report, RECORD_STEP, &args, 0)
            .await
    }

    pub async fn finalize(
        self,
        session_id: &str,
        status: SessionStatus,
        summary: &str,
    ) -> Result<FinalizeResult, McpError> {
        let args = FinalizeArgs {
            session_id: session_id.to_string(),
            status,
            summary: summary.to_string(),
        };
        self.hub.call_typed(Role::Report, FINALIZE, &args, 0).await
    }
}
