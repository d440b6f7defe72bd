//! Finds what a lenient decode tolerated by comparing the answer with the decoded value
//! written back as JSON: our own servers serialize the very same contract types, so for
//! them the two are equal; anything else is a key the contract lacks, a default used, or
//! a value converted. The lenient readers themselves (`whittle_contract::lenient`)
//! never have to report anything.

use serde_json::Value;

use super::tolerance::{JsonType, Leniency, Tolerated};

/// Longest key kept in a field path; keys come from an untrusted server.
const MAX_KEY: usize = 40;

/// Every deviation of `answer` from `decoded`, list items folded into `[]` and each
/// (field, deviation) pair once.
pub(crate) fn deviations(answer: &Value, decoded: &Value) -> Vec<Tolerated> {
    let mut out = Vec::new();
    walk(answer, decoded, "", &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk(answer: &Value, decoded: &Value, path: &str, out: &mut Vec<Tolerated>) {
    let mut push = |field: String, what| out.push(Tolerated { field, what });
    match (answer, decoded) {
        (Value::Object(a), Value::Object(d)) => {
            for (key, av) in a {
                match d.get(key) {
                    Some(dv) => walk(av, dv, &join(path, key), out),
                    // `null` and absent are one thing to an optional field.
                    None if av.is_null() => {}
                    None => out.push(Tolerated {
                        field: join(path, key),
                        what: Leniency::Ignored,
                    }),
                }
            }
            for (key, dv) in d {
                if !a.contains_key(key) && !dv.is_null() {
                    out.push(Tolerated {
                        field: join(path, key),
                        what: Leniency::Defaulted,
                    });
                }
            }
        }
        (Value::Array(a), Value::Array(d)) if a.len() == d.len() => {
            let item = format!("{path}[]");
            for (av, dv) in a.iter().zip(d) {
                walk(av, dv, &item, out);
            }
        }
        (a, d) if a == d => {}
        (Value::Null, _) => push(path.to_string(), Leniency::Defaulted),
        (a, d) if JsonType::of(a) != JsonType::of(d) => push(
            path.to_string(),
            Leniency::Converted {
                from: JsonType::of(a),
                to: JsonType::of(d),
            },
        ),
        _ => push(path.to_string(), Leniency::Normalized),
    }
}

/// `path.key`, the key reduced to safe characters and bounded (it may be anything a
/// server chose to send, and it ends up in the evidence).
fn join(path: &str, key: &str) -> String {
    let mut safe = crate::safe_chars::to_safe_chars(key);
    if safe.len() > MAX_KEY {
        safe.truncate(MAX_KEY);
        safe.push('…');
    }
    if path.is_empty() {
        safe
    } else {
        format!("{path}.{safe}")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn found(answer: Value, decoded: Value) -> Vec<String> {
        deviations(&answer, &decoded)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn equal_answers_tolerate_nothing() {
        let v = json!({"count": 1, "crashes": [{"record_id": "a", "ts": "t"}]});
        assert!(deviations(&v, &v).is_empty());
        // A null optional field written back as absent is the same answer.
        assert!(deviations(
            &json!({"tapped": true, "reason": null}),
            &json!({"tapped": true})
        )
        .is_empty());
    }

    #[test]
    fn names_each_kind_of_deviation_with_list_items_folded() {
        let answer = json!({"crashes": [
            {"record_id": 7, "ts": 1715766000, "pid": 42},
            {"record_id": 8, "ts": 1715766001, "pid": 43}
        ], "extra": {"nested": true}});
        let decoded = json!({"count": 0, "crashes": [
            {"record_id": "7", "ts": "1715766000"},
            {"record_id": "8", "ts": "1715766001"}
        ]});
        assert_eq!(
            found(answer, decoded),
            [
                "count: missing, default used",
                "crashes[].pid: not in the contract or unusable, ignored",
                "crashes[].record_id: a number where text was expected, converted",
                "crashes[].ts: a number where text was expected, converted",
                "extra: not in the contract or unusable, ignored",
            ]
        );
    }

    #[test]
    fn hostile_keys_are_made_safe_and_short() {
        let key = format!("a b/{}", "x".repeat(100));
        let out = deviations(&json!({ key: 1 }), &json!({}));
        assert_eq!(out.len(), 1);
        assert!(out[0].field.starts_with("a_b_xxx"));
        assert!(out[0].field.chars().count() <= MAX_KEY + 1);
    }

    #[test]
    fn null_and_dropped_values_are_defaults() {
        assert_eq!(
            found(json!({"ts": null, "code": "2.3"}), json!({"ts": ""})),
            [
                "code: not in the contract or unusable, ignored",
                "ts: missing, default used"
            ]
        );
    }

    #[test]
    fn an_answer_as_deep_as_rmcp_reads_is_walked_on_a_worker_stack() {
        // rmcp parses a server's answer with serde_json's limit (128 levels); the walk
        // recurses once per level on the tokio worker (2 MiB) that awaited the call.
        let walked = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| {
                let deep =
                    |leaf: &str| format!("{{\"a\": {}{leaf}{}}}", "[".repeat(126), "]".repeat(126));
                let answer: Value = serde_json::from_str(&deep("1")).unwrap();
                let decoded: Value = serde_json::from_str(&deep("\"1\"")).unwrap();
                deviations(&answer, &decoded).len()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(walked, 1);
    }
}
