//! The repository's real-world crash stacks (`tests/fixtures/stacks`, sources in
//! `tests/fixtures/SOURCES.md`), read by the parser and analyzer tests.

use std::path::PathBuf;

/// A stack from the corpus. The files ship with the repository, so a missing one is a
/// failure, not a skip; `Option` keeps the call sites' early returns.
pub fn fixture(rel: &str) -> Option<String> {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/stacks"
    ))
    .join(rel);
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}
