//! How deep untrusted JSON or YAML may nest before it is parsed.
//!
//! Every tree builder and every walker over a tree (serde's deserializers, saphyr's
//! loader, `Drop` of the tree itself) spends stack per level, and `whittle mcp` parses
//! on tokio's threads (2 MiB each): a session file or a flow nested a thousand levels
//! deep must be refused, never abort the process. Real files nest a few levels (a
//! Maestro command's selector, a step's notes); [`MAX_NESTING_DEPTH`] is far above that
//! and far below what a 2 MiB stack holds (docs/SECURITY.md §11).
//!
//! [`check_json_nesting`] counts brackets in the raw text, so the limit holds before
//! any tree is built; YAML is counted from its parser's events
//! (`import/maestro/bounded_load.rs`).

use thiserror::Error;

/// The deepest nesting of lists and objects (mappings) accepted: `[[1]]` is 2.
pub const MAX_NESTING_DEPTH: usize = 64;

/// Input nested deeper than `limit`: where the first list or object past it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("nests lists or objects deeper than {limit} levels at line {line}, column {column}; refusing to read it")]
pub struct TooDeep {
    pub limit: usize,
    /// 1-based line of the text checked.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
}

/// Refuses JSON text whose lists and objects nest deeper than [`MAX_NESTING_DEPTH`]. Only
/// the brackets outside strings are counted; the text is not otherwise checked (the
/// parser that follows does that), so any text is accepted or refused in one pass
/// without recursion.
pub fn check_json_nesting(text: &[u8]) -> Result<(), TooDeep> {
    check_json_nesting_within(text, MAX_NESTING_DEPTH)
}

/// [`check_json_nesting`] with a limit of the caller's.
pub fn check_json_nesting_within(text: &[u8], limit: usize) -> Result<(), TooDeep> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut line = 1usize;
    let mut line_start = 0usize;
    for (at, &byte) in text.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                // A string does not span lines in JSON; counting the line keeps the
                // position right in text that is not JSON either.
                b'\n' => {
                    line += 1;
                    line_start = at + 1;
                }
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Err(TooDeep {
                        limit,
                        line,
                        column: at - line_start + 1,
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => {
                line += 1;
                line_start = at + 1;
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(open: &str, close: &str, n: usize) -> String {
        format!("{}1{}", open.repeat(n), close.repeat(n))
    }

    #[test]
    fn the_limit_itself_is_accepted_and_one_more_level_is_refused_where_it_opens() {
        assert_eq!(check_json_nesting(nested("[", "]", 64).as_bytes()), Ok(()));
        assert_eq!(
            check_json_nesting(nested("[", "]", 65).as_bytes()),
            Err(TooDeep {
                limit: 64,
                line: 1,
                column: 65
            })
        );
        let objects = format!("{{\"a\":\n{}", nested("{\"b\":", "}", 64));
        let refused = check_json_nesting(objects.as_bytes()).unwrap_err();
        assert_eq!((refused.line, refused.column), (2, 5 * 63 + 1));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_and_escapes_do_not_end_a_string() {
        let inside = format!("{{\"s\": \"{}\\\"{}\"}}", "[".repeat(500), "{".repeat(500));
        assert_eq!(check_json_nesting(inside.as_bytes()), Ok(()));
        // An escaped backslash ends before the quote, which closes the string.
        let after = format!("[\"\\\\\"{}", "[".repeat(64));
        assert!(check_json_nesting(after.as_bytes()).is_err());
    }

    #[test]
    fn siblings_do_not_add_up_and_stray_closers_do_not_go_below_zero() {
        let wide = "[[1],".repeat(40) + &"]".repeat(40);
        assert_eq!(check_json_nesting(wide.as_bytes()), Ok(()));
        let stray = "]]]]".to_owned() + &nested("[", "]", 64);
        assert_eq!(check_json_nesting(stray.as_bytes()), Ok(()));
    }

    #[test]
    fn a_hundred_thousand_levels_cost_one_pass_and_no_recursion() {
        let deep = "[".repeat(100_000);
        let refused = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || check_json_nesting(deep.as_bytes()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(refused.unwrap_err().column, 65);
    }
}
