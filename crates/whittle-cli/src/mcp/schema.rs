//! Each tool's published output schema: its answer, or its refusal. A call that produced
//! no answer is marked `isError` and carries a [`ToolFailure`] as `structuredContent`;
//! clients validate any structured content against the tool's declared schema, errors
//! included (the TypeScript SDK's `callTool` does, and throws -32602 on a mismatch), so
//! the refusal is a declared variant of every tool's output:
//! `{"type": "object", "anyOf": [<answer>, <refusal>]}`. The root keeps
//! `"type": "object"`, which MCP requires of an output schema (rmcp drops any other root
//! for peers of older protocol versions).

use std::sync::Arc;

use rmcp::handler::server::tool::schema_for_output;
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde_json::Value;

use super::failure::ToolFailure;

/// What a tool answers, as its schema says it (never built: the tools return
/// `Result<Json<T>, Json<ToolFailure>>`, which serializes the same way, untagged).
#[derive(JsonSchema)]
#[schemars(untagged)]
#[expect(dead_code, reason = "a schema only: nothing is built of this type")]
enum Reply<T> {
    Answer(T),
    Refusal(ToolFailure),
}

/// The output schema of a tool answering `T`: `T` or a [`ToolFailure`].
pub fn answer_or_refusal<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = schema_for_output::<Reply<T>>().as_ref().clone();
    schema.insert("type".to_owned(), Value::from("object"));
    Arc::new(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::answers::ExportAnswer;
    use serde_json::json;

    #[test]
    fn an_output_schema_is_an_object_of_the_answer_or_the_refusal() {
        let schema = answer_or_refusal::<ExportAnswer>();
        assert_eq!(schema["type"], "object");
        assert_eq!(
            schema["anyOf"],
            json!([
                {"$ref": "#/$defs/ExportAnswer"},
                {"$ref": "#/$defs/ToolFailure"}
            ]),
            "{schema:#?}"
        );
        let failure = &schema["$defs"]["ToolFailure"];
        assert_eq!(
            failure["required"],
            json!(["status", "error", "exit"]),
            "{failure:#}"
        );
    }
}
