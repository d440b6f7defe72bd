//! The house rules of `docs/architecture.md`, checked on every `cargo test`:
//!
//! 1. Every dependency between Whittle's own crates (normal, dev and build, in the
//!    workspace and in `fuzz/`) is listed in [`rules::ALLOWED`]; anything else fails, so a
//!    server can never start importing the application layer, nor anything import a
//!    front end, without this table (and the document that draws it) changing first.
//! 2. The core depends on none of the crates in [`rules::CORE_DENIED`] (async runtimes, MCP,
//!    HTTP, the desktop framework, image and file-system helpers, randomness, clocks):
//!    it must stay a library of pure decisions that any front end can drive. The tool
//!    contract keeps the same list: it is data both the servers and the client link, so
//!    it must not bring a transport or a runtime with it.
//! 3. The core's source reads no clock, and touches files only in the workspace readers
//!    named in [`rules::CORE_FILE_READERS`], which never write.
//! 4. The core holds no wording: no CJK text outside comments and test modules, except
//!    in the files of [`rules::CORE_CJK_ALLOWED`], which read Chinese rather than write it.
//!    What Whittle says to people is in `whittle-text`, one catalogue per language.
//! 5. Nor English sentences: an `#[error("…")]` or an `impl Display` in the core (the
//!    two ways Rust words a value) only in the files of [`rules::CORE_ENGLISH_ALLOWED`], each
//!    with its reason. Everything else returns types that a catalogue words.
//! 6. No two source files of a crate use each other, directly or around a loop: one
//!    concept per file along seams of meaning, each readable knowing only what it uses.
//!    The reader (`architecture/files.rs`) says what counts as a use; a cycle left on
//!    purpose is in [`rules::KNOWN_CYCLES`] with its reason, and the list must stay exact.
//! 7. A front end — the CLI with `whittle mcp` (`crates/whittle-cli/src`) and the window
//!    (`src-tauri/src`) — reaches the application layer through its door only: every
//!    `whittle_service::` path in their sources starts `whittle_service::api`, where the
//!    actions and the types they take and answer with are (re-)exported.
//! 8. No type name is defined twice across the crates (a `pub` or `pub(crate)` struct,
//!    enum, type alias or trait in any crate's `src/`): one name, one concept, from the
//!    code to the window.
//!
//! The tables are `architecture/rules.rs`. The manifests are read with `cargo metadata
//! --no-deps --offline` (cargo resolves `workspace = true` inheritance for us; nothing
//! is downloaded or built), and every target's files (tests, benches and fuzz targets
//! too, build scripts aside) by rule 6.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod check;
mod check_tests;
mod files;
mod files_tests;
mod rules;

use check::{
    dependency_violations, door_violations, duplicate_type_names, english_violations,
    source_violations, wording_violations,
};
use rules::{EXTRA_MANIFESTS, KNOWN_CYCLES, READ_TARGETS};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cargo metadata --no-deps` of one manifest.
fn metadata(manifest: &Path) -> Value {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo metadata: {e}"));
    assert!(
        output.status.success(),
        "cargo metadata --manifest-path {} failed: {}",
        manifest.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// The packages of the workspace and of every extra manifest.
fn all_packages() -> Vec<Value> {
    let root = repo_root();
    let manifests = std::iter::once(root.join("Cargo.toml"))
        .chain(EXTRA_MANIFESTS.iter().map(|m| root.join(m)));
    manifests
        .flat_map(|manifest| match metadata(&manifest)["packages"].take() {
            Value::Array(packages) => packages,
            other => panic!("no packages in the metadata of {manifest:?}: {other}"),
        })
        .collect()
}

/// A unit-test module in its own file (`tests.rs`, `*_tests.rs`): compiled only under
/// `cfg(test)`, so it may read fixtures like any test.
fn is_test_module(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s == "tests" || s.ends_with("_tests"))
}

/// Every `.rs` file under `dir` but unit-test modules, as (path relative to `base`,
/// contents).
fn rust_files(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !is_test_module(&path) {
            let rel = path.strip_prefix(base).expect("under the crate");
            let text = std::fs::read_to_string(&path).expect("readable source");
            out.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
}

#[test]
fn crates_depend_only_along_the_allowed_edges() {
    let problems = dependency_violations(&all_packages());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The core's non-test sources, as (path relative to the crate, contents).
fn core_sources() -> Vec<(String, String)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(base, &base.join("src"), &mut files);
    assert!(files.len() > 10, "the core's sources were not found");
    files
}

#[test]
fn the_core_reads_no_clock_and_touches_files_only_in_its_readers() {
    let problems = source_violations(&core_sources());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_core_holds_no_wording() {
    let problems = wording_violations(&core_sources());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_core_words_nothing_in_english_outside_its_allowed_files() {
    let problems = english_violations(&core_sources());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_front_ends_reach_the_application_layer_through_its_door_only() {
    let root = repo_root();
    let mut files = Vec::new();
    for front_end in [root.join("crates/whittle-cli"), root.join("src-tauri")] {
        rust_files(&root, &front_end.join("src"), &mut files);
    }
    assert!(
        files
            .iter()
            .any(|(_, text)| text.contains("whittle_service::api")),
        "the front ends' sources were not found"
    );
    let problems = door_violations(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_type_name_is_defined_twice_across_the_crates() {
    let root = repo_root();
    let mut files = Vec::new();
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/");
    let mut sources: Vec<PathBuf> = crates
        .map(|e| e.expect("a crate folder").path().join("src"))
        .collect();
    sources.push(root.join("src-tauri/src"));
    for src in sources.iter().filter(|s| s.is_dir()) {
        rust_files(&root, src, &mut files);
    }
    assert!(files.len() > 200, "the crates' sources were not found");
    let problems = duplicate_type_names(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_source_files_use_one_another_in_a_cycle() {
    let root = repo_root().canonicalize().expect("the repository's root");
    let mut graph = files::FileGraph::new();
    let mut crates = 0;
    for package in all_packages() {
        let targets = package["targets"].as_array().map_or(&[][..], Vec::as_slice);
        for target in targets {
            let product = target["kind"].as_array().is_some_and(|kinds| {
                kinds
                    .iter()
                    .any(|k| READ_TARGETS.contains(&k.as_str().unwrap_or("")))
            });
            let Some(src) = target["src_path"].as_str().filter(|_| product) else {
                continue;
            };
            files::read_crate(&root, Path::new(src), &mut graph).unwrap_or_else(|e| panic!("{e}"));
            crates += 1;
        }
    }
    assert!(
        crates > 8 && graph.len() > 100,
        "the sources were not found"
    );
    let found = files::cycles(&graph);
    let mut problems: Vec<String> = found
        .iter()
        .filter(|group| !KNOWN_CYCLES.iter().any(|(known, _)| known == group))
        .map(|group| files::describe(&graph, group))
        .collect();
    for (known, _) in KNOWN_CYCLES {
        if !found.iter().any(|group| group == known) {
            problems.push(format!(
                "KNOWN_CYCLES lists {known:?}, which is no longer exactly a cycle: remove or update it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} file cycle(s) (docs/architecture.md; break each along a seam of meaning):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
