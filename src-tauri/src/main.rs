// Keeps a release build on Windows from opening a console window next to the app.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    // GTK (the window on Linux and the BSDs) panics when it cannot open a display: on a
    // headless machine say so in one line, with what to run instead, before tauri starts
    // GTK. (A display that is named but unreachable still fails in GTK.)
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "dragonfly",
        target_os = "netbsd",
        target_os = "openbsd"
    )) && !has_display(|name| std::env::var_os(name))
    {
        eprintln!(
            "whittle-app: no display (DISPLAY and WAYLAND_DISPLAY are unset); run it under \
             Xvfb with `xvfb-run -a whittle-app`, or minimize from the terminal with \
             `whittle minimize <session>`"
        );
        return ExitCode::FAILURE;
    }
    whittle_app::run();
    ExitCode::SUCCESS
}

/// Whether an X or Wayland display is named in the environment (`var` reads it).
fn has_display(var: impl Fn(&str) -> Option<OsString>) -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| var(name).is_some_and(|value| !value.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.into())
        }
    }

    #[test]
    fn an_x_or_a_wayland_display_is_a_display() {
        assert!(has_display(env(&[("DISPLAY", ":0")])));
        assert!(has_display(env(&[("WAYLAND_DISPLAY", "wayland-0")])));
    }

    #[test]
    fn neither_set_or_both_empty_is_no_display() {
        assert!(!has_display(env(&[])));
        assert!(!has_display(env(&[
            ("DISPLAY", ""),
            ("WAYLAND_DISPLAY", "")
        ])));
        assert!(!has_display(env(&[("XDG_SESSION_TYPE", "x11")])));
    }
}
