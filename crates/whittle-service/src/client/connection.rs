use std::collections::BTreeSet;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientRequest, Request, ServerResult};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::RoleClient;
use serde_json::Value;
use whittle_contract::Role;

use super::oversize::{OversizeLog, MESSAGE_LIMIT};
use super::redact::redact_args;
use super::{BadAnswer, McpError, McpErrorKind};

/// One running MCP server, shared by every role it serves.
pub(crate) struct Connection {
    pub(crate) server: String,
    pub(crate) service: RunningService<RoleClient, ()>,
    pub(crate) tools: BTreeSet<String>,
    /// The child's process id (stdio servers).
    pub(crate) pid: Option<u32>,
    /// Answers the transport dropped for their size, by request.
    pub(crate) oversize: OversizeLog,
}

impl Connection {
    /// Calls `tool` with a per-call timeout; `role` only labels errors and logs.
    pub(crate) async fn call(
        &self,
        role: Role,
        tool: &str,
        args: Value,
        timeout: Duration,
    ) -> Result<CallToolResult, McpError> {
        let fail = |kind| McpError {
            role,
            server: self.server.clone(),
            tool: tool.to_string(),
            kind,
        };
        tracing::debug!(server = %self.server, %role, tool, args = %redact_args(&args), "tool call");
        let Value::Object(arguments) = args else {
            return Err(fail(McpErrorKind::Transport(
                "arguments are not a JSON object".into(),
            )));
        };
        if self.service.is_transport_closed() {
            return Err(fail(McpErrorKind::ServerGone));
        }
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(Request::new(params));
        let handle = match self
            .service
            .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
            .await
        {
            Ok(handle) => handle,
            Err(e) => return Err(fail(map_service_error(e, timeout))),
        };
        let id = handle.id.clone();
        match handle.await_response().await {
            Ok(ServerResult::CallToolResult(result)) => Ok(result),
            Ok(_) => Err(fail(McpErrorKind::BadResult(BadAnswer::whole(
                "the server answered tools/call with another kind of result",
            )))),
            // The transport dropped the answer for its size and said so (stdio).
            Err(e) => match self.oversize.take(&id) {
                Some(bytes) => Err(fail(McpErrorKind::AnswerTooLarge {
                    bytes: Some(bytes),
                    limit: MESSAGE_LIMIT as u64,
                })),
                None => Err(fail(map_service_error(e, timeout))),
            },
        }
    }
}

fn map_service_error(e: ServiceError, timeout: Duration) -> McpErrorKind {
    match e {
        ServiceError::McpError(data) => McpErrorKind::ToolError(data.message.into_owned()),
        ServiceError::Timeout { .. } => McpErrorKind::Timeout {
            after_ms: u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX),
        },
        ServiceError::TransportClosed
        | ServiceError::TransportSend(_)
        | ServiceError::Cancelled { .. } => McpErrorKind::ServerGone,
        ServiceError::UnexpectedResponse => {
            McpErrorKind::BadResult(BadAnswer::whole("unexpected response type"))
        }
        other => McpErrorKind::Transport(other.to_string()),
    }
}
