//! A 200 MB `steps.jsonl` is refused at the size limit without being read whole: the
//! error names the file, the line and the limit, and peak memory stays far below the
//! file's size. Run in a process of its own (`alone`), so the peak memory is its own.

use crate::alone;
use crate::session_fixture;

use std::io::{BufWriter, Write};

use serde_json::json;
use session_fixture::*;
use whittle_core::session::{load_session, SessionProblem, MAX_FILE_BYTES, STEPS_FILE};

const FILE_BYTES: usize = 200 * 1024 * 1024;

/// Peak resident memory of this process so far (`VmHWM`), in bytes; `None` off Linux.
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn a_200_mb_steps_file_is_refused_at_the_limit_with_bounded_memory() {
    if !alone::in_own_process(
        "session_huge::a_200_mb_steps_file_is_refused_at_the_limit_with_bounded_memory",
    ) {
        return;
    }
    let ws = Workspace::new();
    let dir = ws.session("2026-05-14_100000_s", "2026-05-14T10:00:00Z", 0, &[]);
    // ~2 KB lines of valid, consecutive steps: only the size is wrong.
    let filler = "x".repeat(2000);
    let mut out = BufWriter::new(std::fs::File::create(dir.join(STEPS_FILE)).unwrap());
    let (mut written, mut index, mut first_past_limit) = (0usize, 0u32, None);
    while written < FILE_BYTES {
        index += 1;
        let line = json!({"index": index, "action": "tap", "notes": filler}).to_string();
        writeln!(out, "{line}").unwrap();
        written += line.len() + 1;
        if written > MAX_FILE_BYTES && first_past_limit.is_none() {
            first_past_limit = Some(index as usize);
        }
    }
    out.flush().unwrap();
    drop(out);

    let before = peak_rss();
    let err = load_session(&dir).unwrap_err();
    let after = peak_rss();

    assert!(
        matches!(err.problem, SessionProblem::FilePastLimit { limit_bytes } if limit_bytes == MAX_FILE_BYTES),
        "{err}"
    );
    assert_eq!(err.file, STEPS_FILE);
    let line = err.line.expect("the error names the line");
    assert_eq!(
        Some(line),
        first_past_limit,
        "the first line past the limit"
    );
    assert_eq!(
        err.to_string(),
        format!("steps.jsonl line {line}: the file passes {MAX_FILE_BYTES} bytes here; refusing to read more")
    );
    if let (Some(before), Some(after)) = (before, after) {
        let grew = after.saturating_sub(before);
        println!(
            "peak RSS grew by {} MiB while refusing a 200 MiB file",
            grew >> 20
        );
        // Everything kept is at most MAX_FILE_BYTES of text plus the parsed copies'
        // overhead; reading the whole file would need more than 200 MiB.
        assert!(grew < 3 * MAX_FILE_BYTES, "peak RSS grew by {grew} bytes");
    }
}
