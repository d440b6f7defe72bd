//! `fake-adb`: a test stand-in for `adb`. It never runs a shell.
//!
//! - Appends its argv (without the program name) as one JSON array line to
//!   `$FAKE_ADB_LOG`, so a test can prove the exact commands a server issued.
//! - Answers from `$FAKE_ADB_DIR/responses.json`: `[{"argv": [...], "replies": [R, ...]}]`
//!   where R is `{"stdout"?: text, "stdout_file"?: path relative to the dir, "stderr"?:
//!   text, "exit"?: int, "hold"?: bool}`. The n-th call with the same argv gets the n-th
//!   reply (the last one repeats), n counted from the log. `hold` keeps the process
//!   alive after writing stdout until it is killed (a streaming `logcat`).
//! - An argv with no entry exits 1 with "fake-adb: no canned response".
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fake-adb: {e}");
            ExitCode::from(101)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let dir = PathBuf::from(std::env::var("FAKE_ADB_DIR").map_err(|_| "FAKE_ADB_DIR unset")?);
    let log = PathBuf::from(std::env::var("FAKE_ADB_LOG").map_err(|_| "FAKE_ADB_LOG unset")?);

    let previous = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter(|l| serde_json::from_str::<Vec<String>>(l).ok().as_ref() == Some(&argv))
        .count();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .map_err(|e| format!("cannot open log {}: {e}", log.display()))?;
    let line = serde_json::to_string(&argv).map_err(|e| e.to_string())?;
    writeln!(f, "{line}").map_err(|e| e.to_string())?;
    drop(f);

    let responses: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("responses.json"))
            .map_err(|e| format!("cannot read responses.json: {e}"))?,
    )
    .map_err(|e| format!("responses.json: {e}"))?;
    let entry = responses.iter().find(|r| {
        r["argv"].as_array().is_some_and(|a| {
            a.iter()
                .map(Value::as_str)
                .eq(argv.iter().map(|s| Some(s.as_str())))
        })
    });
    let Some(entry) = entry else {
        eprintln!("fake-adb: no canned response for {line}");
        return Ok(ExitCode::from(1));
    };
    let replies = entry["replies"]
        .as_array()
        .ok_or("replies must be an array")?;
    let reply = replies
        .get(previous)
        .or_else(|| replies.last())
        .ok_or("replies is empty")?;

    let mut out = std::io::stdout().lock();
    if let Some(text) = reply["stdout"].as_str() {
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    if let Some(file) = reply["stdout_file"].as_str() {
        let bytes = std::fs::read(dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
        out.write_all(&bytes).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    if let Some(text) = reply["stderr"].as_str() {
        eprint!("{text}");
    }
    if reply["hold"].as_bool() == Some(true) {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    let code = reply["exit"].as_u64().unwrap_or(0);
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}
