//! `result.json` files written before a run's end was typed: their `status` (absent in
//! the oldest), `capture_failure` and `runtime_failure` are read into the typed end
//! ([`RunEnd`](whittle_core::run_end::RunEnd)) once, here, so no other reader ever
//! sees the old shape. A run recorded as "minimized" with less than high confidence
//! was never proven minimal: it reads as `unproven`.

use serde_json::{json, Map, Value};

/// The text older Whittles recorded as the runtime failure of a cancelled run. Read
/// only from those files; nothing writes it any more.
const OLD_CANCELLED: &str = "cancelled by user";

/// Rewrites an old result object in place; a current one is left as it is.
pub(super) fn upgrade(result: &mut Value) {
    let Some(object) = result.as_object_mut() else {
        return;
    };
    if !object.contains_key("capture_failure") && !object.contains_key("runtime_failure") {
        return;
    }
    let capture = take_text(object, "capture_failure");
    let runtime = take_text(object, "runtime_failure");
    let old_status = object
        .get("status")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let confidence = object.get("confidence").and_then(Value::as_str);
    let recorded = |detail: String| json!({ "kind": "recorded", "detail": detail });
    let (status, cause) = match (runtime, capture) {
        (Some(runtime), _) if runtime == OLD_CANCELLED => ("cancelled", None),
        (_, Some(capture)) => ("capture_failed", Some(recorded(capture))),
        (Some(runtime), None) => ("runtime_failed", Some(recorded(runtime))),
        (None, None) => match (old_status.as_deref(), confidence) {
            (Some("static"), _) => ("static", None),
            (Some("cancelled"), _) => ("cancelled", None),
            (_, Some("high")) => ("minimized", None),
            (_, Some(_)) => ("unproven", None),
            (_, None) => ("not_reproduced", None),
        },
    };
    object.insert("status".into(), json!(status));
    if let Some(cause) = cause {
        object.insert("cause".into(), cause);
    }
}

fn take_text(object: &mut Map<String, Value>, key: &str) -> Option<String> {
    match object.remove(key) {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upgraded(old: Value) -> Value {
        let mut value = old;
        upgrade(&mut value);
        value
    }

    #[test]
    fn each_old_shape_reads_as_its_typed_end() {
        let base = |status: Value, confidence: Value, capture: Value, runtime: Value| {
            json!({"status": status, "confidence": confidence,
                   "capture_failure": capture, "runtime_failure": runtime})
        };
        let cases = [
            (
                base(json!("minimized"), json!("high"), Value::Null, Value::Null),
                "minimized",
            ),
            (
                base(
                    json!("minimized"),
                    json!("medium"),
                    Value::Null,
                    Value::Null,
                ),
                "unproven",
            ),
            (
                base(Value::Null, json!("medium"), Value::Null, Value::Null),
                "unproven",
            ),
            (
                base(
                    json!("not_reproduced"),
                    Value::Null,
                    Value::Null,
                    Value::Null,
                ),
                "not_reproduced",
            ),
            (
                base(
                    json!("runtime_failed"),
                    json!("high"),
                    Value::Null,
                    json!(OLD_CANCELLED),
                ),
                "cancelled",
            ),
            (
                base(
                    json!("capture_failed"),
                    Value::Null,
                    json!("gone"),
                    Value::Null,
                ),
                "capture_failed",
            ),
            (
                base(
                    json!("runtime_failed"),
                    json!("medium"),
                    Value::Null,
                    json!("adb"),
                ),
                "runtime_failed",
            ),
        ];
        for (old, status) in cases {
            let new = upgraded(old.clone());
            assert_eq!(new["status"], json!(status), "{old}");
            assert!(new.get("capture_failure").is_none() && new.get("runtime_failure").is_none());
        }
        let failed = upgraded(base(
            json!("runtime_failed"),
            Value::Null,
            Value::Null,
            json!("adb"),
        ));
        assert_eq!(
            failed["cause"],
            json!({"kind": "recorded", "detail": "adb"})
        );
    }

    #[test]
    fn a_current_result_is_left_alone() {
        let current = json!({"status": "cancelled", "confidence": "high"});
        assert_eq!(upgraded(current.clone()), current);
    }
}
