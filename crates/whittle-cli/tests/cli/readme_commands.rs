//! Every command block of README.md, then of the documents it points to whose `sh` blocks
//! run `whittle` (`DOCUMENTS`: docs/cli.md, the terminal's manual, and
//! docs/performance.md), run verbatim by `sh` in a copy of the demo laid out as a source
//! checkout (`demo/`, and `target/debug/` holding the built `whittle` and
//! `whittle-servers`, so the default config is the copy's `demo/whittle.json` and
//! `whittle` on PATH is the built binary): each must exit 0. (docs/mcp.md and docs/app.md
//! have no `sh` blocks: an MCP client's configuration is JSON, the app is a window.)
//!
//! What is not run, and why, is the table `SKIPPED`: a `sh` block line it does not match
//! is run, so a new command in any of these files is run by this test unless it is added
//! there with its reason. A placeholder (`<session_id …>`, `<evidence_session>`) is what
//! the documents tell the reader to fill in: the id the previous commands printed.
//!
//! The copy's simulated shop launches and acts without delay (`timing` zeroed in its
//! `demo/shop.json`, as a faster phone would); the commands are the documents'.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{checkout_path, demo_checkout, repo_root};

/// The documents whose `sh` blocks are run, in order (ids printed by one are used by the
/// next's placeholders), each with a command its blocks hold (so a block the reader
/// misses fails the test rather than running nothing).
const DOCUMENTS: &[(&str, &str)] = &[
    ("README.md", "whittle minimize"),
    ("docs/cli.md", "whittle import"),
    ("docs/performance.md", "-- bench"),
];

/// Lines of the documents' `sh` blocks this test does not run: (how the line starts,
/// why).
const SKIPPED: &[(&str, &str)] = &[
    (
        "./scripts/run-demo",
        "Quick start: installs what is missing and opens the window (run_demo_script.rs tests its no-display path)",
    ),
    (
        "./scripts/test-all",
        "Quick start: everything CI runs, this test included",
    ),
    ("./scripts/bundle", "Install: builds the release packages"),
    ("sudo apt install", "Install: installs the package system-wide"),
    (
        "cargo build -p whittle-cli -p whittle-servers",
        "the build this test runs after: the binaries are the ones under test",
    ),
    (
        "target/debug/whittle minimize --all",
        "exits with the worst item's code, which the demo's flaky crash makes vary (minimize_all_cli.rs runs --all on a copy of the demo)",
    ),
    (
        "target/debug/whittle minimize --resume",
        "needs a run cut off mid-search (resume_cli.rs kills one and resumes it)",
    ),
    (
        "cd fuzz",
        "Fuzzing: a ten-minute cargo-fuzz run on the nightly features",
    ),
    (
        "cargo run -p whittle-cli -- bench --flaky",
        "docs/performance.md: builds through cargo from the source tree and runs 200 sessions per row (bench_cli.rs runs `whittle bench --flaky --quick`)",
    ),
    (
        "cargo run --release -p whittle-cli -- bench",
        "docs/performance.md: a release build and the full benchmark (bench_cli.rs runs `whittle bench --quick`)",
    ),
    (
        "cargo build --release -p whittle-servers",
        "docs/performance.md: the release build the overhead and lab benchmarks run against",
    ),
    (
        "cargo bench -p whittle-service",
        "docs/performance.md: the overhead and lab benchmarks, release builds against the real simulator (minutes)",
    ),
    (
        "cargo build -p whittle-servers",
        "docs/performance.md: the build the soak runs against",
    ),
    (
        "cargo test -p whittle-service --test service soak",
        "docs/performance.md: the 500-replay soak, an ignored test of whittle-service",
    ),
];

/// The command lines of every ```sh block, in order, each with its line number.
fn sh_lines(readme: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for (n, line) in readme.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            in_sh = !in_sh && matches!(info.trim(), "sh" | "bash" | "shell" | "console");
            continue;
        }
        if in_sh && !trimmed.is_empty() && !trimmed.starts_with('#') {
            lines.push((n + 1, trimmed.to_owned()));
        }
    }
    lines
}

fn skip_reason(line: &str) -> Option<&'static str> {
    SKIPPED
        .iter()
        .find(|(start, _)| line.starts_with(start))
        .map(|(_, why)| *why)
}

/// The ids earlier commands printed, for the documents' placeholders.
#[derive(Default)]
struct Printed {
    session: Option<String>,
    evidence: Option<String>,
}

impl Printed {
    fn learn(&mut self, out: &str) {
        for line in out.lines() {
            if let Some((_, rest)) = line.split_once(" as session ") {
                self.session = rest.split_whitespace().next().map(str::to_owned);
            }
            if let Some(report) = line.trim().strip_prefix("Report:") {
                let id = Path::new(report.trim())
                    .parent()
                    .and_then(|p| p.file_name())
                    .map(|n| n.to_string_lossy().into_owned());
                self.evidence = id;
            }
        }
    }

    /// `line` with every `<…>` placeholder filled in; panics on one nothing printed.
    fn fill(&self, line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(open) = rest.find('<') {
            let close = open + rest[open..].find('>').expect("placeholder closes");
            let name = &rest[open + 1..close];
            let value = if name.starts_with("session_id") {
                &self.session
            } else if name == "evidence_session" {
                &self.evidence
            } else {
                panic!("placeholder <{name}> has no value in this test")
            };
            out.push_str(&rest[..open]);
            out.push_str(
                value
                    .as_deref()
                    .unwrap_or_else(|| panic!("<{name}> before any command printed it")),
            );
            rest = &rest[close + 1..];
        }
        out + rest
    }
}

#[test]
fn every_whittle_command_of_the_readme_and_the_docs_it_points_to_runs_verbatim_on_the_demo() {
    let lines: Vec<(&str, usize, String)> = DOCUMENTS
        .iter()
        .flat_map(|(doc, holds)| {
            let text = std::fs::read_to_string(repo_root().join(doc)).unwrap();
            let lines = sh_lines(&text);
            assert!(
                lines.iter().any(|(_, l)| l.contains(holds)),
                "{doc}'s command blocks were found (one runs `{holds}`)"
            );
            lines.into_iter().map(move |(n, l)| (*doc, n, l))
        })
        .collect();
    for (start, _) in SKIPPED {
        assert!(
            lines.iter().any(|(_, _, l)| l.starts_with(start)),
            "SKIPPED names `{start}`, which no command block holds any more: drop it"
        );
    }
    let root = demo_checkout();
    let path = checkout_path(root.path());
    let mut printed = Printed::default();
    let mut ran = 0;
    for (doc, n, line) in &lines {
        if let Some(why) = skip_reason(line) {
            eprintln!("{doc} line {n}: skipped `{line}`: {why}");
            continue;
        }
        let command = printed.fill(line);
        eprintln!("{doc} line {n}: running `{command}`");
        let out = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(root.path())
            .env("PATH", &path)
            .env_remove("WHITTLE_CONFIG")
            .env("LANG", "C.UTF-8")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .stdin(Stdio::null())
            .output()
            .expect("run sh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{doc} line {n}: `{command}` exited {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status.code()
        );
        printed.learn(&stdout);
        ran += 1;
    }
    assert!(ran >= 5, "only {ran} commands ran");
    assert!(
        root.path().join("exports").is_dir(),
        "`whittle export … --out exports` wrote its bundle where docs/cli.md says"
    );
}

#[test]
fn the_readme_reader_finds_sh_blocks_and_skips_only_what_the_table_names() {
    let text = "intro\n```sh\n./scripts/run-demo   # opens\nwhittle sessions\n```\n```\nnot sh\n```\n```json\n{}\n```\n";
    let lines = sh_lines(text);
    assert_eq!(
        lines,
        [
            (3, "./scripts/run-demo   # opens".to_owned()),
            (4, "whittle sessions".to_owned())
        ]
    );
    assert!(skip_reason(&lines[0].1).is_some());
    assert!(skip_reason(&lines[1].1).is_none());
    let mut printed = Printed::default();
    printed.learn("Imported a maestro flow for P as session 2026-01-01_000000_x\n  Report:   /w/sessions/2026-01-01_000001_minimize-x/report.md\n");
    assert_eq!(
        printed.fill("whittle export <evidence_session> --out e # <session_id from above>"),
        "whittle export 2026-01-01_000001_minimize-x --out e # 2026-01-01_000000_x"
    );
}
