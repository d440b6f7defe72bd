use whittle_core::sensitive::looks_sensitive_value;

pub(crate) const REDACTED: &str = "[redacted]";

/// Replaces every string in `value` that looks like personal data or a credential.
/// The caller should already have left sensitive inputs out; this is the last guard
/// before data leaves the machine in a ticket.
pub(crate) fn redact_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(s) if looks_sensitive_value(s) => *s = REDACTED.to_string(),
        serde_json::Value::Array(items) => items.iter_mut().for_each(redact_json),
        serde_json::Value::Object(map) => map.values_mut().for_each(redact_json),
        _ => {}
    }
}

/// One line of untrusted text for markdown: no line breaks, no control characters,
/// nothing sensitive-looking.
pub(crate) fn safe_line(text: &str) -> String {
    if looks_sensitive_value(text) {
        return REDACTED.to_string();
    }
    plain_line(text)
}

/// One line of identity text Whittle itself vouches for (ids, versions, fingerprints),
/// which must stay readable: only line breaks and control characters are removed.
pub(crate) fn plain_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Longest stack line kept; the rest of a longer line is cut.
const MAX_STACK_LINE: usize = 300;

/// Untrusted multi-line text (a crash's stack trace) for a ticket: every line that looks
/// private becomes `[redacted]`, tabs become spaces (indentation is how a stack reads),
/// other control characters are removed, and only the first `max_lines` lines are kept,
/// followed by how many were left out.
pub fn safe_block(text: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = lines
        .iter()
        .take(max_lines)
        .map(|line| {
            if looks_sensitive_value(line) {
                return REDACTED.to_string();
            }
            let clean: String = line
                .replace('\t', "    ")
                .chars()
                .filter(|c| !c.is_control())
                .take(MAX_STACK_LINE)
                .collect();
            clean.trim_end().to_string()
        })
        .collect();
    if lines.len() > max_lines {
        out.push(format!("… {} more lines", lines.len() - max_lines));
    }
    out.join("\n")
}
