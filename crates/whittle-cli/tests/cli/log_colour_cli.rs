//! Colour (ANSI escape codes) only on a terminal, never with `NO_COLOR`
//! (https://no-color.org): logs redirected to a file, and a terminal whose user set
//! `NO_COLOR`, get plain text.

use crate::common;

use std::process::{Command, Stdio};

use common::*;

const ESC: u8 = 0x1b;

/// `whittle doctor` with info logs, its stdout and stderr redirected to files.
fn doctor_into_files(env: &Env, no_color: Option<&str>) -> (Vec<u8>, Vec<u8>) {
    let out_file = env.dir.path().join("doctor.out");
    let err_file = env.dir.path().join("doctor.err");
    let mut command = env.command(&["doctor"]);
    command
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(Stdio::from(std::fs::File::create(&out_file).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err_file).unwrap()));
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    command.status().expect("run whittle");
    (
        std::fs::read(&out_file).unwrap(),
        std::fs::read(&err_file).unwrap(),
    )
}

#[test]
fn logs_redirected_to_a_file_carry_no_escape_codes() {
    let env = Env::fast(&[]);
    for no_color in [None, Some("1")] {
        let (out, err) = doctor_into_files(&env, no_color);
        let err_text = String::from_utf8_lossy(&err);
        // The run did log (each server's start), so there was something to colour.
        assert!(err_text.contains("INFO"), "{err_text}");
        assert!(!out.is_empty());
        assert!(!err.contains(&ESC), "NO_COLOR={no_color:?}: {err_text:?}");
        assert!(!out.contains(&ESC), "NO_COLOR={no_color:?}");
    }
}

/// `whittle ARGS` on a pseudo-terminal (util-linux `script`), all it wrote; `None` where
/// `script` is missing. The paths reach the shell as variables, never as its text.
fn on_a_terminal(env: &Env, args: &str, no_color: Option<&str>) -> Option<Vec<u8>> {
    let mut command = Command::new("script");
    command
        .args([
            "-qec",
            &format!("\"$WHITTLE\" --config \"$CONFIG\" {args}"),
            "/dev/null",
        ])
        .env("WHITTLE", env!("CARGO_BIN_EXE_whittle"))
        .env("CONFIG", &env.config)
        .env("RUST_LOG", "info")
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    match command.output() {
        Ok(out) => Some(out.stdout),
        Err(e) => {
            println!("skipped: no `script` to run on a terminal ({e})");
            None
        }
    }
}

#[test]
fn a_terminal_gets_colour_unless_no_color_is_set() {
    let env = Env::fast(&[]);
    let Some(coloured) = on_a_terminal(&env, "doctor", None) else {
        return;
    };
    let text = String::from_utf8_lossy(&coloured);
    assert!(text.contains("INFO"), "{text}");
    // The control: on a terminal, logs are coloured...
    assert!(coloured.contains(&ESC), "{text}");
    // ...and NO_COLOR turns that off, for the logs and for clap's own errors.
    for args in ["doctor", "--no-such-flag"] {
        let plain = on_a_terminal(&env, args, Some("1")).unwrap();
        assert!(!plain.is_empty(), "{args}");
        assert!(
            !plain.contains(&ESC),
            "{args}: {:?}",
            String::from_utf8_lossy(&plain)
        );
    }
    // An empty NO_COLOR is as if unset.
    let empty = on_a_terminal(&env, "doctor", Some("")).unwrap();
    assert!(empty.contains(&ESC));
}
