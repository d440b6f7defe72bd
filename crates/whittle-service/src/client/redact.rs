use serde_json::Value;

/// Argument keys whose values may be what a tester typed (docs/design.md §5).
const SECRET_KEYS: &[&str] = &["text", "input_value", "password"];

/// A copy of tool arguments safe for a debug log.
pub(crate) fn redact_args(args: &Value) -> Value {
    match args {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if SECRET_KEYS.contains(&k.as_str()) && !v.is_null() {
                        Value::String("[redacted]".into())
                    } else {
                        redact_args(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact_args).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::redact_args;

    #[test]
    fn hides_typed_text_but_keeps_the_rest() {
        let args = json!({"device": "sim-1", "text": "hunter2",
            "strategies": [{"by": "text", "value": "Password"}]});
        let shown = redact_args(&args).to_string();
        assert!(!shown.contains("hunter2"));
        assert!(shown.contains("sim-1") && shown.contains("Password"));
    }
}
