//! The house rules of `architecture.rs` as data: which crate plays which part, which
//! edges between them are allowed, what the core may not use, and the cycles left on
//! purpose. The checks (`check.rs`, `files.rs`) read them; the tests apply them.

/// The part a crate plays in the house (`docs/architecture.md`, "The crates").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layer {
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
pub(crate) const CRATES: &[(Layer, &str)] = &[
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
pub(crate) const EXTRA_MANIFESTS: &[&str] = &["fuzz/Cargo.toml"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Normal,
    Dev,
    Build,
}

pub(crate) const ANY: &[Kind] = &[Kind::Normal, Kind::Dev, Kind::Build];
pub(crate) const DEV_ONLY: &[Kind] = &[Kind::Dev];

/// Every allowed dependency between two different crates of the house, and of which
/// kinds; the same table as `docs/architecture.md`. A crate may always depend on itself
/// (that is how a crate switches on its own test-only features).
pub(crate) const ALLOWED: &[(Layer, Layer, &[Kind])] = &[
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
pub(crate) const CORE_DENIED: &[&str] = &[
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
pub(crate) const CORE_FILE_READERS: &[&str] = &["src/workspace.rs", "src/session/"];

/// The only core files whose code (comments aside) may hold CJK text, and why: each
/// recognises Chinese in untrusted input, it does not word anything for a reader.
pub(crate) const CORE_CJK_ALLOWED: &[(&str, &str)] = &[
    (
        "src/sensitive.rs",
        "recognises Chinese one-time-code labels (验证码 …) in session text, to mask them",
    ),
    (
        "src/password_words.rs",
        "recognises the word for password in every language Android ships (密码, パスワード …) \
         in a field's hint or name, to keep what is typed there private",
    ),
];

/// The only core files that may word a value in English (`#[error("…")]`, `impl
/// Display`), and why. A new one fails the test: return a type, and word it in
/// `whittle-text`. The plan's step descriptions and notices are the debt left to move.
pub(crate) const CORE_ENGLISH_ALLOWED: &[(&str, &str)] = &[
    (
        "src/engine/error.rs",
        "refusals of bad engine input, the detail of a typed error",
    ),
    (
        "src/import/error.rs",
        "a flow file's problem, naming its line and field",
    ),
    (
        "src/nesting.rs",
        "input nested too deep, naming the limit, the line and the column",
    ),
    (
        "src/plan/error.rs",
        "a session that cannot be planned, the detail of a typed error",
    ),
    (
        "src/plan/start_path.rs",
        "a path a re-proof cannot start from, the detail of a typed error",
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
pub(crate) const KNOWN_CYCLES: &[(&[&str], &str)] = &[];

/// Source text that reads a clock or sleeps.
pub(crate) const CLOCK_USES: &[&str] = &[
    "SystemTime",
    "Instant::now",
    "Utc::now",
    "Local::now",
    "thread::sleep",
];
/// Source text that reaches files, processes, the network or the environment.
pub(crate) const OUTSIDE_USES: &[&str] = &[
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
pub(crate) const WRITES: &[&str] = &[
    "fs::write",
    "File::create",
    "OpenOptions",
    "create_dir",
    "remove_file",
    "remove_dir",
    "fs::rename",
    "fs::copy",
];

/// Kinds of cargo targets whose files rule 6 reads: every one but build scripts, which
/// are one file each.
pub(crate) const READ_TARGETS: &[&str] = &[
    "lib",
    "rlib",
    "cdylib",
    "staticlib",
    "proc-macro",
    "bin",
    "test",
    "bench",
    "example",
];
