//! Turns a `tools/call` result into a contract type: `structuredContent` first, else
//! the first text block parsed as JSON; errors name the field at fault.
use rmcp::model::{CallToolResult, ContentBlock};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::McpErrorKind;

/// Longest tool error text kept in an error message.
const MAX_ERROR_TEXT: usize = 500;

/// `Some(message)` when the tool reported `isError: true`.
pub(crate) fn tool_error(result: &CallToolResult) -> Option<McpErrorKind> {
    if result.is_error != Some(true) {
        return None;
    }
    let mut text: String = result
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        text = "no message".into();
    }
    if text.len() > MAX_ERROR_TEXT {
        let cut = (0..=MAX_ERROR_TEXT)
            .rev()
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(0);
        text.truncate(cut);
        text.push('…');
    }
    Some(McpErrorKind::ToolError(text))
}

pub(crate) fn decode<T: DeserializeOwned>(result: &CallToolResult) -> Result<T, McpErrorKind> {
    if let Some(e) = tool_error(result) {
        return Err(e);
    }
    let value = payload(result)?;
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." {
            McpErrorKind::BadResult(inner.to_string())
        } else {
            McpErrorKind::BadResult(format!("field `{path}`: {inner}"))
        }
    })
}

fn payload(result: &CallToolResult) -> Result<Value, McpErrorKind> {
    if let Some(v) = result.structured_content.as_ref().filter(|v| !v.is_null()) {
        return Ok(v.clone());
    }
    let text = result
        .content
        .iter()
        .find_map(ContentBlock::as_text)
        .ok_or_else(|| McpErrorKind::BadResult("no structuredContent and no text block".into()))?;
    serde_json::from_str(&text.text).map_err(|e| {
        McpErrorKind::BadResult(format!(
            "no structuredContent and the first text block is not JSON ({e})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::json;
    use whittle_core::contract::ui::Hierarchy;

    use super::*;

    #[test]
    fn reads_structured_content_then_text() {
        let structured = CallToolResult::structured(json!({"elements": []}));
        assert_eq!(decode::<Hierarchy>(&structured).unwrap().elements.len(), 0);
        let text = CallToolResult::success(vec![ContentBlock::text(r#"{"elements":[]}"#)]);
        assert!(decode::<Hierarchy>(&text).is_ok());
    }

    #[test]
    fn names_the_bad_field() {
        let r = CallToolResult::structured(json!({"elements": [{"bounds": "wide"}]}));
        match decode::<Hierarchy>(&r) {
            Err(McpErrorKind::BadResult(m)) => assert!(m.contains("elements[0].bounds"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn surfaces_is_error() {
        let r = CallToolResult::error(vec![ContentBlock::text("no such device")]);
        assert_eq!(
            decode::<Hierarchy>(&r),
            Err(McpErrorKind::ToolError("no such device".into()))
        );
    }
}
