//! Strips the per-line prefixes that logcat's output formats put before a message, so the
//! same stack reads the same whether it was captured as threadtime, brief, time or in
//! Android Studio (old and new layouts). Lines without a known prefix pass through.
use std::sync::LazyLock;

use regex::Regex;

/// One alternative per format; each is anchored at the line start and consumes the prefix
/// up to (and including) the separator before the message.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    let date_time = r"(?:\d{4}-)?\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+";
    let level = r"[VDIWEFA]";
    let patterns = [
        // threadtime: `05-20 17:16:54.259 27435 27435 E AndroidRuntime: msg`, and with
        // `-v uid` a uid column first: `08-23 22:54:56.031 10580 11231 11231 F DEBUG : msg`
        format!(r"{date_time}(?:\w+\s+)?\d+\s+\d+\s+{level}\s+[^:\n]*?\s*: ?"),
        // Studio (old): `2020-06-07 17:05:25.230 12340-12340/com.pkg A/DEBUG: msg`
        format!(r"{date_time}\d+-\d+/\S*\s+{level}/[^:\n]*: ?"),
        // Studio (new): `2023-01-01 12:00:00.000  1234-1234  Tag  com.pkg  E  msg`
        format!(r"{date_time}\d+-\d+\s+\S+\s+\S+\s+{level}[ ]{{1,2}}"),
        // time: `05-20 17:16:54.259 E/AndroidRuntime( 1234): msg`
        format!(r"{date_time}{level}/[^(\n]*\(\s*\d+\): ?"),
        // brief: `E/AndroidRuntime(10841): msg`
        format!(r"{level}/[^(:\n]*\(\s*\d+\): ?"),
        // On-device log viewers: `06:44:36E/AndroidRuntime msg`
        format!(r"\d{{2}}:\d{{2}}:\d{{2}}(?:\.\d+)?{level}/[^\s:]+:? ?"),
        // Studio copy with tag only: `E/AndroidRuntime: msg`
        format!(r"{level}/[A-Za-z0-9_.\- ]+: ?"),
    ];
    let joined = patterns
        .iter()
        .map(|p| format!("(?:{p})"))
        .collect::<Vec<_>>()
        .join("|");
    // Patterns are constants: a failure here is a programming error caught by any test.
    Regex::new(&format!("^(?:{joined})")).expect("logcat prefix regex")
});

/// The message part of one log line (leading indentation of the message is kept).
pub fn strip_prefix(line: &str) -> &str {
    match PREFIX.find(line) {
        Some(m) => &line[m.end()..],
        None => line,
    }
}

/// All lines of `text` with their logcat prefix removed.
pub fn messages(text: &str) -> Vec<&str> {
    text.lines().map(strip_prefix).collect()
}

#[cfg(test)]
mod tests {
    use super::strip_prefix;

    #[test]
    fn strips_every_supported_format() {
        let cases = [
            "05-20 17:16:54.259 27435 27435 E AndroidRuntime: \tat a.B.c(B.java:1)",
            "E/AndroidRuntime(10841): \tat a.B.c(B.java:1)",
            "05-20 17:16:54.259 E/AndroidRuntime( 1841): \tat a.B.c(B.java:1)",
            "2020-06-07 17:05:25.230 12340-12340/? E/AndroidRuntime: \tat a.B.c(B.java:1)",
            "2020-06-07 17:05:25.230 12340-12340/com.x E/AndroidRuntime: \tat a.B.c(B.java:1)",
            "2023-01-01 12:00:00.000  1234-1234  AndroidRuntime  com.x  E  \tat a.B.c(B.java:1)",
            "E/AndroidRuntime: \tat a.B.c(B.java:1)",
            "08-23 22:54:56.031 10580 11231 11231 E AndroidRuntime: \tat a.B.c(B.java:1)",
            "06:44:36E/AndroidRuntime \tat a.B.c(B.java:1)",
        ];
        for c in cases {
            assert_eq!(strip_prefix(c), "\tat a.B.c(B.java:1)", "{c}");
        }
    }

    #[test]
    fn leaves_unprefixed_lines_alone() {
        assert_eq!(
            strip_prefix("    at a.B.c(B.java:1)"),
            "    at a.B.c(B.java:1)"
        );
        assert_eq!(strip_prefix("signal 11 (SIGSEGV)"), "signal 11 (SIGSEGV)");
    }
}
