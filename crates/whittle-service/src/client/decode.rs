//! Turns a `tools/call` result into a contract type: `structuredContent` first, else the
//! text block that holds a JSON object. The contract types decide what is lenient and
//! what is strict (`docs/tool-contract.md`); a strict failure names the field, and what
//! a lenient read tolerated comes back with the value so the hub can warn about it.
use rmcp::model::{CallToolResult, ContentBlock};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use whittle_contract::lease::{DeviceBusy, DEVICE_BUSY};

use crate::device_lease::shown_host_text;

use super::deviation::deviations;
use super::tolerance::{Leniency, Tolerated};
use super::{BadAnswer, McpErrorKind};

/// Longest tool error text kept in an error message.
const MAX_ERROR_TEXT: usize = 500;

/// How the public mobile-mcp server ends an error it does not flag `isError` (its
/// "actionable" errors: device not found, tooling missing). Taken for an error: a launch
/// or a button press that answered this did not happen, and a verdict must not assume it did.
const MOBILE_MCP_ACTIONABLE: &str = "Please fix the issue and try again.";

/// A decoded answer and what was tolerated to read it.
#[derive(Debug)]
pub(crate) struct Decoded<T> {
    pub(crate) value: T,
    pub(crate) tolerated: Vec<Tolerated>,
}

/// `Some(message)` when the tool reported an error: `isError: true`, or a prose answer in
/// mobile-mcp's unflagged error form.
pub(crate) fn tool_error(result: &CallToolResult) -> Option<McpErrorKind> {
    let texts = || {
        result
            .content
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(|t| t.text.as_str())
    };
    let flagged = result.is_error == Some(true);
    let unflagged = !flagged
        && has_no_structured(result)
        && texts().any(|t| t.trim_end().ends_with(MOBILE_MCP_ACTIONABLE));
    if !flagged && !unflagged {
        return None;
    }
    if let Some(busy) = device_busy(result) {
        return Some(busy);
    }
    let mut text = texts().collect::<Vec<_>>().join(" ");
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

pub(crate) fn decode<T: DeserializeOwned + Serialize>(
    result: &CallToolResult,
) -> Result<Decoded<T>, McpErrorKind> {
    if let Some(e) = tool_error(result) {
        return Err(e);
    }
    let (answer, tolerated) = payload(result)?;
    decode_value(&answer, tolerated)
}

/// Decodes `answer` as `T`; `tolerated` is what was already tolerated to find it.
pub(crate) fn decode_value<T: DeserializeOwned + Serialize>(
    answer: &Value,
    mut tolerated: Vec<Tolerated>,
) -> Result<Decoded<T>, McpErrorKind> {
    let value: T = serde_path_to_error::deserialize(answer).map_err(|e| {
        let path = e.path().to_string();
        McpErrorKind::BadResult(bad_field(&path, e.into_inner().to_string()))
    })?;
    // Written back, the value is what our own servers would have sent; the difference
    // is what this answer needed tolerated. (A value that cannot be written back is
    // not a reason to refuse an answer that decoded.)
    if let Ok(written) = serde_json::to_value(&value) {
        tolerated.extend(deviations(answer, &written));
    }
    Ok(Decoded { value, tolerated })
}

/// The field a serde error is about. serde reports a missing field at its parent with
/// "missing field `x`"; the field itself is the useful name.
fn bad_field(path: &str, problem: String) -> BadAnswer {
    let parent = if path == "." { "" } else { path };
    let missing = problem
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
        .map(str::to_string);
    let field = match missing {
        Some(name) if parent.is_empty() => Some(name),
        Some(name) => Some(format!("{parent}.{name}")),
        None if parent.is_empty() => None,
        None => Some(parent.to_string()),
    };
    BadAnswer { field, problem }
}

/// A lab host's refusal of a device another session holds (`whittle_contract::lease`),
/// told apart by its structured record, never by its prose. Its words are the host's,
/// and a host is untrusted: they are made safe to show here, where they come in, so no
/// error, notice or refusal built from them carries a terminal escape or 200 KB.
fn device_busy(result: &CallToolResult) -> Option<McpErrorKind> {
    let record = result.structured_content.clone()?;
    let busy: DeviceBusy = serde_json::from_value(record).ok()?;
    (busy.error == DEVICE_BUSY).then(|| McpErrorKind::DeviceBusy {
        device: shown_host_text(&busy.device),
        holder: shown_host_text(&busy.holder),
    })
}

fn has_no_structured(result: &CallToolResult) -> bool {
    result
        .structured_content
        .as_ref()
        .is_none_or(serde_json::Value::is_null)
}

/// The answer's JSON object: `structuredContent` when it is one, else the first text block
/// that parses as one (surrounding whitespace allowed). Finding it among other blocks is
/// tolerated (and said so); finding none is an error.
fn payload(result: &CallToolResult) -> Result<(Value, Vec<Tolerated>), McpErrorKind> {
    if let Some(v) = result.structured_content.as_ref().filter(|v| v.is_object()) {
        return Ok((v.clone(), Vec::new()));
    }
    let found = result
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .find_map(|t| match serde_json::from_str::<Value>(t.text.trim()) {
            Ok(v @ Value::Object(_)) => Some(v),
            _ => None,
        });
    let Some(value) = found else {
        let has_text = result.content.iter().any(|c| c.as_text().is_some());
        return Err(McpErrorKind::BadResult(BadAnswer::whole(if has_text {
            "no structuredContent, and no text block holds a JSON object"
        } else {
            "no structuredContent and no text block"
        })));
    };
    let blocks = result.content.len();
    let tolerated = if blocks > 1 {
        vec![Tolerated::answer(Leniency::ExtraContent {
            blocks: u32::try_from(blocks).unwrap_or(u32::MAX),
        })]
    } else {
        Vec::new()
    };
    Ok((value, tolerated))
}

#[cfg(test)]
mod tests;
