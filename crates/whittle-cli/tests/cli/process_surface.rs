//! Surface (issue #8): the only code that starts a process is the code that starts what
//! the user configured: MCP servers from `whittle.json` (`client/start.rs`), adb at the
//! configured path (`adb/runner.rs`, the doctor's `doctor/adb.rs` probe), and the app's "show in
//! folder" (`reveal.rs`, for paths the app wrote). A new spawn anywhere
//! else fails this test until it is reviewed and added here with its reason, so no path
//! from session data (steps, notes, meta) to a process can appear unnoticed.

use std::path::{Path, PathBuf};

/// `(file under the repository root, why it may start a process)`.
const ALLOWED: &[(&str, &str)] = &[
    (
        "crates/whittle-service/src/client/start.rs",
        "starts the stdio servers of the user's whittle.json",
    ),
    (
        "crates/whittle-service/src/client/stdio_child.rs",
        "spawns the command start.rs built for a stdio server of the user's whittle.json",
    ),
    (
        "crates/whittle-service/src/client/stderr_tail.rs",
        "its unit tests run sh as a server writing hostile stderr (a 1 MiB line, bad bytes)",
    ),
    (
        "crates/whittle-servers/src/adb/runner.rs",
        "runs the configured adb with an argument vector",
    ),
    (
        "crates/whittle-service/src/doctor/adb.rs",
        "runs `adb version` / `adb devices` for the configured adb (the doctor, CLI and app)",
    ),
    (
        "crates/whittle-servers/src/adb/input_escape.rs",
        "its unit test runs sh to prove the escaping",
    ),
    (
        "src-tauri/src/reveal.rs",
        "opens the OS file manager on a path the app itself wrote (never one from a session)",
    ),
];

const SPAWNERS: &[&str] = &["Command::new", "TokioChildProcess", "posix_spawn", "execvp"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_reviewed_files_start_processes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .unwrap();
    let mut files = Vec::new();
    for dir in [
        "crates/whittle-core/src",
        "crates/whittle-service/src",
        "crates/whittle-servers/src",
        "crates/whittle-cli/src",
        "src-tauri/src",
    ] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    let mut spawning = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        if SPAWNERS.iter().any(|s| text.contains(s)) {
            let rel = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            spawning.push(rel);
        }
    }
    let unreviewed: Vec<&String> = spawning
        .iter()
        .filter(|f| !ALLOWED.iter().any(|(allowed, _)| allowed == f))
        .collect();
    assert!(
        unreviewed.is_empty(),
        "these files start processes; check that nothing from a session reaches them, \
         then list them in ALLOWED: {unreviewed:?}"
    );
    // The start of configured servers is still where this test expects it.
    assert!(spawning
        .iter()
        .any(|f| f == "crates/whittle-service/src/client/start.rs"));
}
