//! The name a client gives itself (MCP `clientInfo.name`) is chosen by whoever holds
//! the token and is shown to other clients (the holder of a `device_busy` refusal) and
//! in the log. So it is made safe to show first: control characters (terminal escapes
//! among them) and the invisible characters that reorder or hide text are replaced, and
//! it is cut to [`MAX_CLIENT_NAME_CHARS`] characters (a reviewer sent 200 KB of escapes).

/// Characters of a client's name that are shown; the rest is cut with `…`.
pub const MAX_CLIENT_NAME_CHARS: usize = 64;

/// What stands in for a character that is not shown.
const REPLACEMENT: char = '?';

/// `name` as it may be shown: one line of visible characters, at most
/// [`MAX_CLIENT_NAME_CHARS`] of them.
pub fn shown_client_name(name: &str) -> String {
    let mut shown = String::new();
    for (taken, c) in name.chars().enumerate() {
        if taken == MAX_CLIENT_NAME_CHARS {
            shown.push('…');
            break;
        }
        shown.push(if hidden(c) { REPLACEMENT } else { c });
    }
    if shown.trim().is_empty() {
        return "an unnamed client".to_owned();
    }
    shown
}

/// Control characters (C0, DEL, C1: ESC and CSI start terminal escapes) and format
/// characters that change how the text around them reads: bidirectional overrides and
/// isolates, zero-width characters, the byte order mark.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_are_replaced_and_the_length_is_bounded() {
        assert_eq!(shown_client_name("whittle"), "whittle");
        assert_eq!(shown_client_name("rmcp 中文"), "rmcp 中文");
        let shown = shown_client_name("\u{1b}[2J\u{1b}]0;owned\u{7}evil\r\nname\u{9b}31m");
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert_eq!(shown, "?[2J?]0;owned?evil??name?31m");
        assert_eq!(shown_client_name("a\u{202E}gpj.exe"), "a?gpj.exe");
        let huge = "\u{1b}[31m".repeat(40_000);
        let shown = shown_client_name(&huge);
        assert_eq!(shown.chars().count(), MAX_CLIENT_NAME_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(shown_client_name(""), "an unnamed client");
        assert_eq!(shown_client_name("  "), "an unnamed client");
    }
}
