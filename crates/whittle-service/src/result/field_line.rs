//! Where a top-level field of `result.json` is: a refusal that names the line lets
//! whoever reads it open the file there. The file is untrusted and may have been
//! rewritten in any layout (one line, other indentation, other key order), so this reads
//! JSON's structure — strings with their escapes, nesting depth — rather than matching
//! text: a key of the same name inside `proof` or a string never counts.

/// The 1-based line on which the top-level key `key` of the JSON object `text` starts,
/// or `None` when the object has no such key.
pub fn field_line(text: &str, key: &str) -> Option<usize> {
    let mut line = 1;
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            '"' => {
                let start_line = line;
                let start = at + 1;
                let mut end = start;
                let mut escaped = false;
                for (i, s) in chars.by_ref() {
                    end = i;
                    match s {
                        '\n' => line += 1,
                        '\\' if !escaped => {
                            escaped = true;
                            continue;
                        }
                        '"' if !escaped => break,
                        _ => {}
                    }
                    escaped = false;
                }
                // A key is a string directly inside the top-level object, before a colon.
                let is_key = depth == 1 && {
                    while let Some((_, space)) = chars.next_if(|(_, c)| c.is_whitespace()) {
                        if space == '\n' {
                            line += 1;
                        }
                    }
                    chars.peek().is_some_and(|(_, c)| *c == ':')
                };
                if is_key && text.get(start..end) == Some(key) {
                    return Some(start_line);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::field_line;

    #[test]
    fn finds_top_level_keys_in_any_layout_and_never_nested_ones_or_values() {
        let pretty = "{\n  \"status\": \"minimized\",\n  \"proof\": [\n    {\"minimal_path\": 1}\n  ],\n  \"note\": \"\\\"minimal_path\\\": x\",\n  \"minimal_path\": [\n    1,\n    12\n  ]\n}";
        assert_eq!(field_line(pretty, "status"), Some(2));
        assert_eq!(field_line(pretty, "minimal_path"), Some(7));
        assert_eq!(field_line(pretty, "attempts"), None);
        let one_line = r#"{"a":{"minimal_path":[2]},"minimal_path":[1,12]}"#;
        assert_eq!(field_line(one_line, "minimal_path"), Some(1));
        assert_eq!(field_line("{\"x\"\n:1,\n\"y\":2}", "y"), Some(3));
    }
}
