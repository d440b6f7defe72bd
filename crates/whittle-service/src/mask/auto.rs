use regex::Regex;
use whittle_contract::ui::Hierarchy;

use whittle_core::sensitive::{
    looks_like_one_time_code, looks_sensitive_key, looks_sensitive_text, looks_sensitive_value,
};

use super::MaskRect;

/// Masks every element a screenshot must not show: password fields, text or
/// description that looks sensitive, ids matching the configured patterns, and a
/// focused text field that holds text (what the user is typing, or autofill), a code
/// shown in prose ("your verification code is 483920"), and a
/// field whose id names private data (`id/email`) or whose text looks like a password.
/// Invisible elements are included too: masking too much is safe, too little is not.
pub fn auto_masks(h: &Hierarchy, id_patterns: &[Regex]) -> Vec<MaskRect> {
    h.elements
        .iter()
        .filter_map(|e| {
            let reason = if e.password {
                "password field"
            } else if looks_sensitive_text(&e.text) || looks_sensitive_text(&e.content_desc) {
                "sensitive text"
            } else if looks_like_one_time_code(&e.text) || looks_like_one_time_code(&e.content_desc)
            {
                "one-time code"
            } else if !e.resource_id.is_empty()
                && id_patterns.iter().any(|p| p.is_match(&e.resource_id))
            {
                "id matches a masking pattern"
            } else if e.focused && e.class.contains("EditText") && !e.text.is_empty() {
                "focused input with text"
            } else if !e.text.is_empty()
                && (looks_sensitive_key(&e.resource_id) || looks_sensitive_value(&e.text))
            {
                "private field"
            } else {
                return None;
            };
            MaskRect::from_bounds(e.bounds, reason)
        })
        .collect()
}
