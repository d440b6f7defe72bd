//! The repository's root, and the Python that runs the official MCP SDK's programs
//! (`tests/peers/python/`): the venv `scripts/setup` builds at `.venv-peers/`, or
//! WHITTLE_PEER_PYTHON. Without one a test is skipped with the reason printed, except in
//! CI (`CI=true`), where that is a failure.

use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python with the MCP SDK, or `None` (after saying why) when there is none here.
pub fn peer_python() -> Option<PathBuf> {
    let python = std::env::var_os("WHITTLE_PEER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".venv-peers/bin/python"));
    if python.is_file() {
        return Some(python);
    }
    let why = format!(
        "no Python for the MCP peer at {} (run scripts/setup, or set WHITTLE_PEER_PYTHON)",
        python.display()
    );
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI must run the Python MCP peer tests: {why}"
    );
    eprintln!("SKIPPED: {why}");
    None
}
