//! One MCP server type for the `report` and `analyzer` roles: `report`, `analyzer` and
//! `all` subcommands differ only in which tool routers it is built with.
use std::path::Path;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::{tool_handler, ServerHandler, ServiceExt};

use crate::report::{ReportError, ReportStore};

/// Why serving the report/analyzer roles over stdin/stdout failed.
#[derive(Debug, thiserror::Error)]
pub enum ReportAnalyzerServeError {
    /// Boxed: rmcp's error is large, and this one travels up every start-up `Result`.
    #[error("MCP handshake failed: {0}")]
    Handshake(#[source] Box<rmcp::service::ServerInitializeError>),
    #[error("MCP server stopped: {0}")]
    Stopped(#[source] tokio::task::JoinError),
}

#[derive(Clone)]
pub struct ReportAnalyzerServer {
    pub(crate) tools: ToolRouter<ReportAnalyzerServer>,
    /// Present whenever the report tools are routed.
    pub(crate) store: Option<Arc<ReportStore>>,
}

impl ReportAnalyzerServer {
    pub fn report(workspace: &Path) -> Result<Self, ReportError> {
        Ok(ReportAnalyzerServer {
            tools: Self::report_router(),
            store: Some(Arc::new(ReportStore::open(workspace)?)),
        })
    }

    pub fn analyzer() -> Self {
        ReportAnalyzerServer {
            tools: Self::analyzer_router(),
            store: None,
        }
    }

    pub fn all(workspace: &Path) -> Result<Self, ReportError> {
        Ok(ReportAnalyzerServer {
            tools: Self::report_router() + Self::analyzer_router(),
            store: Some(Arc::new(ReportStore::open(workspace)?)),
        })
    }

    /// Serves over stdin/stdout until the client disconnects.
    pub async fn serve_stdio(self) -> Result<(), ReportAnalyzerServeError> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| ReportAnalyzerServeError::Handshake(Box::new(e)))?;
        running
            .waiting()
            .await
            .map_err(ReportAnalyzerServeError::Stopped)?;
        Ok(())
    }
}

// The name is one Whittle's client keeps HTTP connections to (whittle-service
// `client/keep_alive.rs` lists it): rename it there too.
#[tool_handler(router = self.tools, name = "whittle-report-analyzer")]
impl ServerHandler for ReportAnalyzerServer {}
