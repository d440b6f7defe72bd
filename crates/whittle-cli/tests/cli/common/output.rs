//! Reading what `whittle` printed and wrote: its output, files under a folder, a
//! session's meta and steps.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

pub fn json_out(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            stdout(o),
            stderr(o)
        )
    })
}

/// Every file's text under `dir` (binary files skipped).
pub fn all_text_under(dir: &Path) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.push_str(&all_text_under(&p));
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            out.push_str(&t);
        }
    }
    out
}

/// The `status` field of a session's meta.json.
pub fn meta_status(dir: &Path) -> String {
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    meta["status"].as_str().unwrap_or_default().to_string()
}

/// The step lines of a session's steps.jsonl (none when the file is absent).
pub fn session_steps(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The step lines of an evidence session's steps.jsonl (the file must exist).
pub fn evidence_steps(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
