//! How every device server (simulator, adb) shapes a tool answer (docs/design.md §2): a JSON object
//! as `structuredContent` plus one text block with the same JSON; a failure the client
//! should see as a tool result is `isError: true` with a message.
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

pub(crate) fn ok<T: Serialize>(value: &T) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(v) => CallToolResult::structured(v),
        Err(e) => fail(format!("cannot encode result: {e}")),
    }
}

pub(crate) fn fail(message: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.into())])
}
