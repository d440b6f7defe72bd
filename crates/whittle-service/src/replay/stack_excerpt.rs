//! The part of a crash's stack the window shows per attempt. A stack is app output: its
//! exception messages can carry what the user typed or saw (an e-mail in "user x@y not
//! found", a card number, a one-time code). Frames are code and stay; a line that looks
//! private anywhere is withheld whole, because a message cannot be masked reliably word
//! by word (privacy fails closed). Long stacks are cut: the top frames identify a crash.

use whittle_core::sensitive::{looks_like_one_time_code, looks_sensitive_text};

/// At most this many lines are kept (the header, `Caused by` lines and top frames).
pub const MAX_STACK_LINES: usize = 40;
/// Longer lines are clipped (a message can be a whole JSON body).
pub const MAX_LINE_CHARS: usize = 240;
/// What a withheld line reads as.
pub const WITHHELD_LINE: &str = "[line withheld: it looks like private data]";

/// The first lines of `stack`, each safe to show.
pub fn stack_excerpt(stack: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let all: Vec<&str> = stack.lines().filter(|l| !l.trim().is_empty()).collect();
    for line in all.iter().take(MAX_STACK_LINES) {
        lines.push(safe_line(line));
    }
    if all.len() > MAX_STACK_LINES {
        lines.push(format!("… {} more lines", all.len() - MAX_STACK_LINES));
    }
    lines
}

fn safe_line(line: &str) -> String {
    if looks_sensitive_text(line) || looks_like_one_time_code(line) {
        return WITHHELD_LINE.to_string();
    }
    let mut out = String::new();
    for (taken, c) in line.trim_end().chars().enumerate() {
        if taken == MAX_LINE_CHARS {
            out.push('…');
            break;
        }
        // Control characters could forge lines or colour a terminal; tabs read as spaces.
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_stay_and_private_messages_are_withheld() {
        let stack = "java.lang.IllegalStateException: no account for qa.tester@example.com\n\
                     \tat com.example.shop.Login.check(Login.kt:42)\n\
                     Caused by: java.io.IOException: card 4111 1111 1111 1111 declined\n\
                     \tat com.example.shop.Pay.go(Pay.kt:7)\n";
        let lines = stack_excerpt(stack);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], WITHHELD_LINE);
        assert_eq!(lines[1], " at com.example.shop.Login.check(Login.kt:42)");
        assert_eq!(lines[2], WITHHELD_LINE);
        assert!(!lines.join("\n").contains("example.com"));
        assert!(!lines.join("\n").contains("4111"));
    }

    #[test]
    fn one_time_codes_in_messages_are_withheld_and_plain_messages_kept() {
        let lines = stack_excerpt(
            "java.lang.RuntimeException: verification code 483920 rejected\n\
             java.lang.NullPointerException: Attempt to invoke virtual method on a null object reference",
        );
        assert_eq!(lines[0], WITHHELD_LINE);
        assert!(lines[1].starts_with("java.lang.NullPointerException: Attempt"));
    }

    #[test]
    fn long_stacks_and_lines_are_cut() {
        let stack: String = (0..100)
            .map(|i| format!("\tat a.B.m{i}(B.kt:{i})\n"))
            .collect();
        let lines = stack_excerpt(&stack);
        assert_eq!(lines.len(), MAX_STACK_LINES + 1);
        assert_eq!(lines.last().unwrap(), "… 60 more lines");
        let long = stack_excerpt(&"x".repeat(1000));
        assert_eq!(long[0].chars().count(), MAX_LINE_CHARS + 1);
    }
}
