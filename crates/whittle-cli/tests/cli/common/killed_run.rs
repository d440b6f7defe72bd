//! What a test reads of a run it killed or interrupted: the attempts its journal holds,
//! the app's launches per log capture (a resume starts a new capture, so a journaled
//! attempt replayed again would show as an extra launch), and the servers a killed
//! `whittle` left behind, until they exit.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The attempt records of the evidence session's journal, in file order.
pub fn journal_attempts(evidence: &Path) -> Vec<Value> {
    std::fs::read_to_string(evidence.join("journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["record"] == "attempt")
        .collect()
}

/// Launches of the app per log capture of the evidence (each capture starts with the
/// simulator's seed line).
pub fn launches_per_capture(evidence: &Path) -> Vec<u64> {
    let log = std::fs::read_to_string(evidence.join("logcat.txt")).unwrap();
    let mut captures: Vec<u64> = Vec::new();
    for line in log.lines() {
        if line.contains("flaky-crash seed") {
            captures.push(0);
        } else if line.contains("Start proc") {
            *captures.last_mut().expect("a capture header first") += 1;
        }
    }
    captures
}

/// Processes whose command line or working folder names `needle` (a test's temp
/// folder; a config with relative paths starts its servers in its own folder): the MCP
/// servers a killed `whittle` left behind, until they see their stdin close and exit.
fn processes_naming(needle: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cwd = std::fs::read_link(entry.path().join("cwd")).unwrap_or_default();
        let names = String::from_utf8_lossy(&cmdline).contains(needle)
            || cwd.to_string_lossy().contains(needle);
        if names && pid != std::process::id() {
            pids.push(pid);
        }
    }
    pids
}

/// Waits until the servers of a killed run started under `dir` are gone (their last
/// in-flight call landed).
pub fn wait_for_orphans_to_exit(dir: &Path) {
    let needle = dir.to_string_lossy().into_owned();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !processes_naming(&needle).is_empty() {
        assert!(
            Instant::now() < deadline,
            "servers still running 20 s after whittle was killed: {:?}",
            processes_naming(&needle)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
