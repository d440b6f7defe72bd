//! Whether output may be coloured (ANSI escape codes): only on a terminal, and never
//! when `NO_COLOR` is set to anything but the empty string (<https://no-color.org>).
//! A log redirected to a file, or read by a screen reader or another program, then
//! carries no escape codes. One rule for the CLI's and the app's log output and the
//! CLI's own help and errors.
use std::ffi::OsStr;
use std::io::IsTerminal;

/// The variable that turns colour off whatever the stream.
pub const NO_COLOR: &str = "NO_COLOR";

/// The rule itself: `is_terminal` for the stream written to, `no_color` the value of
/// `NO_COLOR` (`None` when unset).
pub fn colour_allowed(is_terminal: bool, no_color: Option<&OsStr>) -> bool {
    is_terminal && !asks_for_no_colour(no_color)
}

/// Whether stderr, as this process has it, may carry colour.
pub fn stderr_colour_allowed() -> bool {
    colour_allowed(
        std::io::stderr().is_terminal(),
        std::env::var_os(NO_COLOR).as_deref(),
    )
}

/// Whether this process's environment turns colour off (`NO_COLOR` set, not empty).
pub fn no_colour_asked() -> bool {
    asks_for_no_colour(std::env::var_os(NO_COLOR).as_deref())
}

fn asks_for_no_colour(no_color: Option<&OsStr>) -> bool {
    no_color.is_some_and(|value| !value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        assert!(colour_allowed(true, None));
        // An empty NO_COLOR is as if unset (no-color.org).
        assert!(colour_allowed(true, Some(OsStr::new(""))));
        for value in ["1", "0", "false", " "] {
            assert!(!colour_allowed(true, Some(OsStr::new(value))), "{value:?}");
        }
        assert!(!colour_allowed(false, None));
        assert!(!colour_allowed(false, Some(OsStr::new("1"))));
    }
}
