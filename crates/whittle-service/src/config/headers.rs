//! A `url` server's `headers` block: names checked, `${VAR}` expanded from the
//! environment, values kept as secrets from here on.
use std::collections::BTreeMap;

use super::env_expand::expand;
use super::Secret;

/// Headers the MCP transport sets itself; a config value would break the protocol.
const RESERVED: [&str; 5] = [
    "accept",
    "content-type",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

/// `(field, message)` on failure; the message names a variable, never a value.
pub(crate) fn resolve_headers(
    at: &str,
    raw: BTreeMap<String, String>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(String, Secret)>, (String, String)> {
    let mut headers = Vec::with_capacity(raw.len());
    for (name, value) in raw {
        let field = format!("{at}.headers.{name}");
        if name.is_empty() || !name.bytes().all(is_token_byte) {
            return Err((field, "is not a valid HTTP header name".into()));
        }
        if RESERVED.iter().any(|r| name.eq_ignore_ascii_case(r)) {
            return Err((field, "is set by the MCP transport itself".into()));
        }
        let value = expand(&value, lookup).map_err(|e| (field.clone(), e.to_string()))?;
        // CR/LF would split the header; other control bytes are refused by HTTP itself.
        if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err((field, "contains a control character".into()));
        }
        headers.push((name, Secret::new(value)));
    }
    Ok(headers)
}

/// RFC 9110 `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "LAB_TOKEN").then(|| "lab-secret-1".to_string())
    }

    fn raw(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn values_are_expanded_and_kept_secret() {
        let h = resolve_headers(
            "mcpServers.labA",
            raw(&[
                ("Authorization", "Bearer ${LAB_TOKEN}"),
                ("X-Lab", "rack-3"),
            ]),
            &env,
        )
        .unwrap();
        assert_eq!(h[0].0, "Authorization");
        assert_eq!(h[0].1.expose(), "Bearer lab-secret-1");
        assert!(!format!("{h:?}").contains("lab-secret-1"));
    }

    #[test]
    fn errors_name_the_field_and_the_variable() {
        let (field, message) = resolve_headers(
            "mcpServers.labB",
            raw(&[("Authorization", "Bearer ${LAB_B_TOKEN}")]),
            &env,
        )
        .unwrap_err();
        assert_eq!(field, "mcpServers.labB.headers.Authorization");
        assert_eq!(message, "environment variable LAB_B_TOKEN is not set");
        for (name, value) in [("Bad Name", "x"), ("Accept", "x"), ("X-A", "a\r\nb")] {
            assert!(
                resolve_headers("s", raw(&[(name, value)]), &env).is_err(),
                "{name}"
            );
        }
    }
}
