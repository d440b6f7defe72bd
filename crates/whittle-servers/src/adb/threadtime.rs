//! One line of `logcat -v threadtime`: `MM-DD HH:MM:SS.mmm  PID  TID L TAG     : message`.
use std::sync::LazyLock;

use regex::Regex;

static LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+)\s+(\d+)\s+(\d+)\s+([VDIWEFA])\s+([^:]*?)\s*: ?(.*)$",
    )
    .expect("threadtime regex")
});

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine<'a> {
    pub ts: &'a str,
    pub pid: u32,
    pub tid: u32,
    pub level: char,
    pub tag: &'a str,
    /// The message, leading indentation kept (frames start with a tab).
    pub message: &'a str,
}

/// `None` for banners (`--------- beginning of crash`) and anything not threadtime.
pub fn parse_line(line: &str) -> Option<LogLine<'_>> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let c = LINE.captures(line)?;
    let get = |i: usize| c.get(i).map_or("", |m| m.as_str());
    Some(LogLine {
        ts: get(1),
        pid: get(2).parse().ok()?,
        tid: get(3).parse().ok()?,
        level: get(4).chars().next()?,
        tag: get(5),
        message: get(6),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_split() {
        let l = parse_line(
            "05-20 17:16:54.259 27435 27435 E AndroidRuntime: \tat java.lang.Thread.start(Thread.java:733)\r",
        )
        .unwrap();
        assert_eq!(
            l,
            LogLine {
                ts: "05-20 17:16:54.259",
                pid: 27435,
                tid: 27435,
                level: 'E',
                tag: "AndroidRuntime",
                message: "\tat java.lang.Thread.start(Thread.java:733)",
            }
        );
        let padded =
            parse_line("10-16 15:30:03.591  2509  2509 F libc    : Fatal signal 6").unwrap();
        assert_eq!((padded.tag, padded.message), ("libc", "Fatal signal 6"));
        let empty = parse_line("10-16 15:30:03.686  2595  2595 F DEBUG   :").unwrap();
        assert_eq!((empty.tag, empty.message), ("DEBUG", ""));
    }

    #[test]
    fn other_formats_and_banners_are_not_threadtime() {
        for l in [
            "--------- beginning of crash",
            "E/AndroidRuntime(10841): FATAL EXCEPTION: main",
            "2020-06-07 17:05:25.230 12340-12340/? A/DEBUG: backtrace:",
            "    at a.B.c(B.java:1)",
        ] {
            assert_eq!(parse_line(l), None, "{l}");
        }
    }
}
