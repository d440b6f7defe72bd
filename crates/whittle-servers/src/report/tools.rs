//! The `report` tools. Tool names are literals (the macro needs them); the server test
//! checks them against `whittle_contract::report::TOOLS`.
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use whittle_contract::report::{
    FinalizeArgs, FinalizeResult, ListSessionsResult, RecordStepArgs, RecordStepResult,
    SessionIdArgs, SessionPath, StartSessionArgs,
};
use whittle_contract::NoArgs;

use super::{ReportError, ReportStore};
use crate::report_analyzer::ReportAnalyzerServer;

/// An alias, not spelled `Result<Json<T>, _>`: the `#[tool]` macro then declares no output
/// schema for these tools, as it never has (spelled out, it would add one).
type ToolResult<T> = Result<Json<T>, ReportError>;

impl ReportAnalyzerServer {
    fn store(&self) -> Result<&ReportStore, ReportError> {
        self.store.as_deref().ok_or(ReportError::NoWorkspace)
    }
}

#[tool_router(router = report_router, vis = "pub(crate)")]
impl ReportAnalyzerServer {
    #[tool(description = "List the sessions of the workspace, oldest first.")]
    async fn list_sessions(&self, _args: Parameters<NoArgs>) -> ToolResult<ListSessionsResult> {
        let sessions = self.store()?.list_sessions()?;
        Ok(Json(ListSessionsResult { sessions }))
    }

    #[tool(description = "Absolute folder of a session, by session id.")]
    async fn get_session_path(
        &self,
        Parameters(args): Parameters<SessionIdArgs>,
    ) -> ToolResult<SessionPath> {
        let path = self.store()?.get_session_path(&args.session_id);
        path.map(Json)
    }

    #[tool(
        description = "Start a session (id YYYY-MM-DD_HHMMSS_<name>); writes meta.json with status running."
    )]
    async fn start_session(
        &self,
        Parameters(args): Parameters<StartSessionArgs>,
    ) -> ToolResult<SessionPath> {
        let started = self.store()?.start_session(&args, chrono::Local::now());
        started.map(Json)
    }

    #[tool(
        description = "Append one step to the session's steps.jsonl; returns its index (1, 2, ...)."
    )]
    async fn record_step(
        &self,
        Parameters(args): Parameters<RecordStepArgs>,
    ) -> ToolResult<RecordStepResult> {
        let index = self.store()?.record_step(&args, chrono::Local::now()).await;
        index.map(|index| Json(RecordStepResult { index }))
    }

    #[tool(description = "Set the session's final status and write report.md; returns its path.")]
    async fn finalize(
        &self,
        Parameters(args): Parameters<FinalizeArgs>,
    ) -> ToolResult<FinalizeResult> {
        let path = self.store()?.finalize(&args).await;
        path.map(|p| {
            Json(FinalizeResult {
                report_path: p.display().to_string(),
            })
        })
    }
}
