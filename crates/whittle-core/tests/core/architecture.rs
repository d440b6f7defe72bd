//! The house rules of `docs/architecture.md`, checked on every `cargo test`:
//!
//! 1. Every dependency between Whittle's own crates (normal, dev and build, in the
//!    workspace and in `fuzz/`) is listed in [`ALLOWED`]; anything else fails, so a
//!    server can never start importing the application layer, nor anything import a
//!    front end, without this table (and the document that draws it) changing first.
//! 2. The core depends on none of the crates in [`CORE_DENIED`] (async runtimes, MCP,
//!    HTTP, the desktop framework, image and file-system helpers, randomness, clocks):
//!    it must stay a library of pure decisions that any front end can drive. The tool
//!    contract keeps the same list: it is data both the servers and the client link, so
//!    it must not bring a transport or a runtime with it.
//! 3. The core's source reads no clock, and touches files only in the workspace readers
//!    named in [`CORE_FILE_READERS`], which never write.
//! 4. The core holds no wording: no CJK text outside comments and test modules, except
//!    in the files of [`CORE_CJK_ALLOWED`], which read Chinese rather than write it.
//!    What Whittle says to people is in `whittle-text`, one catalogue per language.
//! 5. Nor English sentences: an `#[error("…")]` or an `impl Display` in the core (the
//!    two ways Rust words a value) only in the files of [`CORE_ENGLISH_ALLOWED`], each
//!    with its reason. Everything else returns types that a catalogue words.
//! 6. No two source files of a crate use each other, directly or around a loop: one
//!    concept per file along seams of meaning, each readable knowing only what it uses.
//!    The reader (`architecture/files.rs`) says what counts as a use; a cycle left on
//!    purpose is in [`KNOWN_CYCLES`] with its reason, and the list must stay exact.
//!
//! The manifests are read with `cargo metadata --no-deps --offline` (cargo resolves
//! `workspace = true` inheritance for us; nothing is downloaded or built).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod check;
mod check_tests;
mod files;
mod files_tests;

use check::{dependency_violations, english_violations, source_violations, wording_violations};

/// The part a crate plays in the house (`docs/architecture.md`, "The crates").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// Formats, plan, engine, strategies, signatures, assessment, redaction.
    Core,
    /// The wording: one catalogue per language and the report renderer that the CLI,
    /// the app and the evidence share. It words what the core decided, nothing else.
    Text,
    /// The MCP tool contract: tool names, argument and result types, roles. Servers and
    /// the client both import it, so neither imports the other.
    Contract,
    /// I/O helpers both the application layer and the servers use (atomic writes): they
    /// import no crate of the house, so sharing them links nobody to anybody.
    Support,
    /// The run, replay, evidence, masking, export, sidecar, config and the MCP client.
    Application,
    /// The MCP servers Whittle ships (report, analyzer, simulator, adb).
    Servers,
    /// The benchmark harness (`whittle bench`): scenarios, the simulator's timing, plots.
    Bench,
    /// The `whittle` command.
    Cli,
    /// The desktop app (Tauri).
    Desktop,
    /// cargo-fuzz targets (outside the workspace).
    Fuzz,
}
use Layer::*;

/// The one place each crate's package name is written: renaming a crate means editing
/// its name here (and in `docs/architecture.md`), nothing else in this file.
const CRATES: &[(Layer, &str)] = &[
    (Core, "whittle-core"),
    (Text, "whittle-text"),
    (Contract, "whittle-contract"),
    (Support, "whittle-atomic"),
    (Application, "whittle-service"),
    (Servers, "whittle-servers"),
    (Bench, "whittle-bench"),
    (Cli, "whittle-cli"),
    (Desktop, "whittle-app"),
    (Fuzz, "whittle-fuzz"),
];

/// Manifests outside the workspace whose crates are part of the house.
const EXTRA_MANIFESTS: &[&str] = &["fuzz/Cargo.toml"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Dev,
    Build,
}

const ANY: &[Kind] = &[Kind::Normal, Kind::Dev, Kind::Build];
const DEV_ONLY: &[Kind] = &[Kind::Dev];

/// Every allowed dependency between two different crates of the house, and of which
/// kinds; the same table as `docs/architecture.md`. A crate may always depend on itself
/// (that is how a crate switches on its own test-only features).
const ALLOWED: &[(Layer, Layer, &[Kind])] = &[
    // The contract carries the domain's own values (locators, signatures, crash kinds).
    (Contract, Core, ANY),
    // The servers share the tool contract and the signature code with the client.
    (Servers, Core, ANY),
    (Servers, Contract, ANY),
    (Servers, Support, ANY),
    (Application, Support, ANY),
    (Application, Core, ANY),
    // The run's report, the evidence's rate lines and the localized report are worded
    // by the catalogue.
    (Application, Text, ANY),
    (Text, Core, ANY),
    (Application, Contract, ANY),
    // Tests of the client talk to the real servers; the library never links them.
    (Application, Servers, DEV_ONLY),
    // The bench reads the simulator's timing from the simulator's own model.
    (Bench, Core, ANY),
    (Bench, Servers, ANY),
    (Cli, Core, ANY),
    (Cli, Text, ANY),
    // Its tests build the answers a server gives (a `ui` hierarchy).
    (Cli, Contract, DEV_ONLY),
    (Cli, Bench, ANY),
    (Cli, Application, ANY),
    (Desktop, Core, ANY),
    (Desktop, Text, ANY),
    // The window is offered roles, devices and crash groups as the servers name them.
    (Desktop, Contract, ANY),
    (Desktop, Application, ANY),
    // Fuzz targets call every parser of untrusted input where it lives.
    (Fuzz, Core, ANY),
    (Fuzz, Application, ANY),
    (Fuzz, Servers, ANY),
];

/// External crates the core and the contract may not depend on (normal or build,
/// optional or not; their tests may use what they like). A trailing `*` denies a whole
/// family by prefix.
const CORE_DENIED: &[&str] = &[
    // Async runtimes: the engine is driven by whoever owns the clock and the devices.
    "tokio*",
    "futures*",
    "async-std",
    "smol",
    // MCP and HTTP: talking to servers is the application layer's job.
    "rmcp",
    "reqwest",
    "hyper*",
    "rustls",
    "tower*",
    "http",
    "http-body*",
    // The desktop framework and its IPC.
    "tauri*",
    "wry",
    // Images, fonts and the file system beyond reading a session.
    "image",
    "png",
    "gif",
    "ab_glyph",
    "font8x8",
    "fs4",
    "notify*",
    "dirs",
    "tempfile",
    "walkdir",
    // Logging sinks and command lines belong to the binaries.
    "tracing-subscriber",
    "tracing-appender",
    "clap",
    // Randomness and clocks: the same inputs must give the same decisions.
    "rand*",
    "getrandom",
    "fastrand",
    "time",
    "quanta",
    "coarsetime",
    "instant",
    "web-time",
];

/// The only core files that may touch the file system: the readers of a session
/// workspace (they read, never write; `docs/architecture.md` says why they are here).
/// A path ending in `/` covers its folder.
const CORE_FILE_READERS: &[&str] = &["src/workspace.rs", "src/session/"];

/// The only core files whose code (comments aside) may hold CJK text, and why: each
/// recognises Chinese in untrusted input, it does not word anything for a reader.
const CORE_CJK_ALLOWED: &[(&str, &str)] = &[(
    "src/sensitive.rs",
    "recognises Chinese one-time-code labels (验证码 …) in session text, to mask them",
)];

/// The only core files that may word a value in English (`#[error("…")]`, `impl
/// Display`), and why. A new one fails the test: return a type, and word it in
/// `whittle-text`. The plan's step descriptions and notices are the debt left to move.
const CORE_ENGLISH_ALLOWED: &[(&str, &str)] = &[
    (
        "src/engine/error.rs",
        "refusals of bad engine input, the detail of a typed error",
    ),
    (
        "src/import/error.rs",
        "a flow file's problem, naming its line and field",
    ),
    (
        "src/plan/error.rs",
        "a session that cannot be planned, the detail of a typed error",
    ),
    (
        "src/session/error.rs",
        "a session file's problem, naming its path and line",
    ),
    (
        "src/session/id.rs",
        "why a session id is refused, the detail of a typed error",
    ),
    (
        "src/workspace.rs",
        "a workspace that cannot be listed, the detail of a typed error",
    ),
    (
        "src/strategy/choice.rs",
        "a strategy's identifier (`seed`, `binary`), not a sentence",
    ),
    (
        "src/rate.rs",
        "a rate's numbers (\"3 of 3 (95 % interval 43–100 %)\"), laid out once",
    ),
    (
        "src/model/sidecar.rs",
        "a fingerprint's age as the sidecar records it",
    ),
    (
        "src/plan/describe.rs",
        "debt: the step descriptions the session shows",
    ),
    (
        "src/plan/skip.rs",
        "debt: why a step is skipped, shown beside the step",
    ),
    ("src/plan/types.rs", "debt: the plan's notices"),
];

/// The groups of files that are allowed to use one another in a loop (paths from the
/// repository's root, sorted), each with why it is left. The test fails on any other
/// cycle, and on an entry here that is no longer exactly a cycle.
const KNOWN_CYCLES: &[(&[&str], &str)] = &[(
    &[
        "crates/whittle-service/src/run/evidence_step.rs",
        "crates/whittle-service/src/run/recorded.rs",
    ],
    "evidence_step.rs builds recorded.rs's RecordedAttempt (recorded_attempt), which \
     recorded.rs calls back; both are being rewritten, which is where it is to be broken",
)];

/// Source text that reads a clock or sleeps.
const CLOCK_USES: &[&str] = &[
    "SystemTime",
    "Instant::now",
    "Utc::now",
    "Local::now",
    "thread::sleep",
];
/// Source text that reaches files, processes, the network or the environment.
const OUTSIDE_USES: &[&str] = &[
    "std::fs",
    "fs::",
    "File::",
    "std::net",
    "std::process",
    "Command::new",
    "std::env",
    "env::var",
];
/// Source text that writes a file (forbidden even in the readers).
const WRITES: &[&str] = &[
    "fs::write",
    "File::create",
    "OpenOptions",
    "create_dir",
    "remove_file",
    "remove_dir",
    "fs::rename",
    "fs::copy",
];

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

/// Kinds of cargo targets whose sources are the product (tests and benches are read by
/// nobody else, build scripts are one file each).
const PRODUCT_TARGETS: &[&str] = &["lib", "rlib", "cdylib", "staticlib", "proc-macro", "bin"];

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
                    .any(|k| PRODUCT_TARGETS.contains(&k.as_str().unwrap_or("")))
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
