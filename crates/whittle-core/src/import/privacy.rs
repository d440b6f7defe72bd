//! Whether a value an imported flow types may be stored in the session, decided from
//! facts before guesses: what the format says about the field (`private` on the
//! action: a password widget class, an ancestor named for a secret, a masked text), the
//! values the user marks private, then the words of the field's key or hint and the
//! value's own shape (`crate::sensitive::looks_sensitive_input`, in every language it
//! knows). A value judged private is never written (see `action.rs`).

use crate::sensitive::{looks_secret_key, looks_sensitive_input};

/// Is the value typed into the field keyed `key` ("" when the flow does not say)
/// private? `marked` is the format's or the user's own word that it is.
pub fn typed_value_is_private(key: &str, value: &str, marked: bool) -> bool {
    marked || looks_sensitive_input(key, value)
}

/// Does this value hold one of the values the user marked private?
pub fn holds_private_value(value: &str, private_values: &[String]) -> bool {
    private_values
        .iter()
        .any(|p| !p.trim().is_empty() && value.contains(p.as_str()))
}

/// Does one of the names a format gives a field (its class, its description, its
/// ancestors' ids and descriptions) name a secret?
pub fn names_a_secret<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    names.into_iter().any(looks_secret_key)
}

/// Is this the text a password field shows: only mask characters (`•`, `*`, `●`)?
pub fn is_masked_text(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && text
            .chars()
            .all(|c| matches!(c, '\u{2022}' | '*' | '\u{25cf}'))
}

#[cfg(test)]
#[path = "privacy_tests.rs"]
mod tests;
