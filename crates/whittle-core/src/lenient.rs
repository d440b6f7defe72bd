//! How the client reads the fields of a tool answer, one function per policy
//! (`docs/tool-contract.md` lists which field gets which).
//!
//! Fields that decide nothing (timestamps, display names, counters the client never uses)
//! are read leniently: another JSON type is converted, `null` is the default. Fields a
//! verdict rests on (record identities, fingerprints) are checked strictly, so a server
//! that breaks them fails with the field named instead of steering a verdict.
//!
//! The client notices every conversion by comparing the answer with the decoded value
//! written back (`whittle_service::client`), so these functions only convert; they never
//! log. Our own servers serialize the same types, so they never trigger a conversion.
//!
//! They live in the core, not in the tool contract (`whittle-contract`, which re-exports
//! them as `whittle_contract::lenient`), because the domain's own answer types are read
//! with them: a crash [`Signature`](crate::signature::Signature) and a
//! [`CrashGroup`](crate::signature::CrashGroup).
use serde::de::{self, Deserializer, Unexpected};
use serde::Deserialize;
use serde_json::Value;

/// Text that decides nothing: a string as is; a number or boolean as its JSON text
/// (`1715766000`, `true`); `null` as the empty string. Objects and arrays are still
/// refused: they are not a value of this field under any reading.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(opt_text(d)?.unwrap_or_default())
}

/// Optional text that decides nothing: like [`text`], with `null` as `None`.
pub fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        Value::Array(_) => Err(de::Error::invalid_type(Unexpected::Seq, &"text")),
        Value::Object(_) => Err(de::Error::invalid_type(Unexpected::Map, &"text")),
    }
}

/// A counter that decides nothing: a non-negative integer, or a string holding one;
/// anything else reads as 0 (the client never acts on it).
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Ok(opt_count(d)?.unwrap_or(0))
}

/// An optional number that decides nothing (an app's version code): an integer or a
/// string holding one; anything else is dropped.
pub fn opt_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A record's identity (`record_id`): a non-empty string, or an integer read as its
/// decimal text. An integer is safe to convert: two records share a decimal text only
/// if they share the number. Fractions, booleans, `null` and `""` are refused — read
/// leniently they would merge distinct records or split one.
pub fn identity<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    const EXPECTED: &str = "a non-empty string or an integer identifying the record";
    match Value::deserialize(d)? {
        Value::String(s) if !s.trim().is_empty() => Ok(s),
        Value::String(_) => Err(de::Error::invalid_value(Unexpected::Str(""), &EXPECTED)),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        other => Err(de::Error::invalid_type(unexpected(&other), &EXPECTED)),
    }
}

/// A crash fingerprint: `null` (none could be built) or 12 lowercase hex digits.
/// Present in every answer: a missing one is refused, not read as "none".
pub fn fingerprint<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    const EXPECTED: &str = "null or 12 lowercase hex digits";
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) if is_fingerprint(&s) => Ok(Some(s)),
        Value::String(s) => Err(de::Error::invalid_value(Unexpected::Str(&s), &EXPECTED)),
        other => Err(de::Error::invalid_type(unexpected(&other), &EXPECTED)),
    }
}

/// 12 lowercase hex digits, the fingerprint format every analyzer answers in.
pub fn is_fingerprint(s: &str) -> bool {
    s.len() == 12 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => n
            .as_i64()
            .map(Unexpected::Signed)
            .or_else(|| n.as_u64().map(Unexpected::Unsigned))
            .or_else(|| n.as_f64().map(Unexpected::Float))
            .unwrap_or(Unexpected::Other("number")),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Probe {
        #[serde(default, deserialize_with = "super::text")]
        text: String,
        #[serde(default, deserialize_with = "super::opt_count")]
        code: Option<u32>,
        #[serde(default, deserialize_with = "super::identity")]
        id: String,
        #[serde(default, deserialize_with = "super::fingerprint")]
        fp: Option<String>,
    }

    fn probe(v: serde_json::Value) -> Result<Probe, serde_json::Error> {
        serde_json::from_value(v)
    }

    #[test]
    fn text_takes_numbers_booleans_and_null() {
        assert_eq!(
            probe(json!({"text": 1715766000})).unwrap().text,
            "1715766000"
        );
        assert_eq!(probe(json!({"text": 1.5})).unwrap().text, "1.5");
        assert_eq!(probe(json!({"text": true})).unwrap().text, "true");
        assert_eq!(probe(json!({"text": null})).unwrap().text, "");
        assert!(probe(json!({"text": {"a": 1}})).is_err());
        assert!(probe(json!({"text": [1]})).is_err());
    }

    #[test]
    fn counts_take_digit_strings_and_drop_the_rest() {
        assert_eq!(probe(json!({"code": 230})).unwrap().code, Some(230));
        assert_eq!(probe(json!({"code": " 231 "})).unwrap().code, Some(231));
        assert_eq!(probe(json!({"code": "2.3"})).unwrap().code, None);
        assert_eq!(probe(json!({"code": -1})).unwrap().code, None);
    }

    #[test]
    fn identity_takes_integers_but_never_merges_records() {
        assert_eq!(probe(json!({"id": 17})).unwrap().id, "17");
        assert_eq!(probe(json!({"id": "r-17"})).unwrap().id, "r-17");
        for bad in [json!(""), json!("  "), json!(1.5), json!(true), json!(null)] {
            let e = probe(json!({ "id": bad })).unwrap_err().to_string();
            assert!(e.contains("identifying the record"), "{bad}: {e}");
        }
    }

    #[test]
    fn fingerprint_is_null_or_twelve_lowercase_hex() {
        assert_eq!(probe(json!({"fp": null})).unwrap().fp, None);
        assert_eq!(
            probe(json!({"fp": "0123456789ab"})).unwrap().fp.as_deref(),
            Some("0123456789ab")
        );
        for bad in [json!("0123456789AB"), json!("0123"), json!(""), json!(12)] {
            assert!(probe(json!({ "fp": bad })).is_err(), "{bad}");
        }
    }
}
