//! The `analyzer` tools. Tool names are literals (the macro needs them); the server test
//! checks them against `whittle_contract::analyzer::TOOLS`.
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use whittle_contract::analyzer::{
    ComputeSignatureArgs, SessionAnalysis, SessionDirArgs, Signature, StaticSuggestion,
    SuggestMinimalPathArgs,
};
use whittle_core::signature;

use super::AnalyzerError;
use crate::report_analyzer::ReportAnalyzerServer;

#[tool_router(router = analyzer_router, vis = "pub(crate)")]
impl ReportAnalyzerServer {
    #[tool(
        description = "Fingerprint of a Java/Kotlin, ANR or native crash stack (null when the stack is unusable). It ignores line numbers, addresses, ids, messages and compiler-made names (R8/D8/Kotlin lambdas, accessors), so one crash keeps one fingerprint across builds; canonical_key starts with the normalization version (vN|)."
    )]
    async fn compute_signature(
        &self,
        Parameters(args): Parameters<ComputeSignatureArgs>,
    ) -> Json<Signature> {
        Json(signature::compute_signature(&args.stack, args.kind))
    }

    #[tool(description = "Group the crashes of a session folder (absolute path) by signature.")]
    async fn analyze_session(
        &self,
        Parameters(args): Parameters<SessionDirArgs>,
    ) -> Result<Json<SessionAnalysis>, AnalyzerError> {
        super::analyze_session(&args.session_dir).map(Json)
    }

    #[tool(
        description = "Static (not replayed, low-confidence) guess of a crash's minimal repro path."
    )]
    async fn suggest_minimal_path(
        &self,
        Parameters(args): Parameters<SuggestMinimalPathArgs>,
    ) -> Result<Json<StaticSuggestion>, AnalyzerError> {
        super::suggest_minimal_path(&args.session_dir, &args.crash_id).map(Json)
    }
}
