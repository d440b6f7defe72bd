//! Names that come from untrusted places (device ids, screenshot names) turned into one
//! file-name component: every character outside `[A-Za-z0-9._-]` becomes `_`. Callers
//! still decide what an empty or dot-leading result becomes.

pub(crate) fn to_safe_chars(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
