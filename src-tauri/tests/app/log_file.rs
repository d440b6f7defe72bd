//! The app's log file after a real run of the demo's checkout session: the run is
//! there (so the file is worth revealing), and no value the tester typed is — neither the
//! private e-mail the plan skips nor the search text it replays —, with the default
//! filter and at `RUST_LOG=trace` alike. Each test runs in a process of its own
//! (`alone`): it installs the process's logger and sets `RUST_LOG`.

use crate::alone;
use crate::common;

use std::sync::Arc;

use common::*;
use whittle_app::runs::WindowRuns;

const TYPED: [&str; 3] = ["qa.tester", "example.com", "espresso"];

/// Runs the checkout session with `RUST_LOG` as given (unset: what a user gets) and
/// answers the log folder's text, checked to hold the run.
fn logged_run(rust_log: Option<&str>) -> String {
    match rust_log {
        Some(filter) => std::env::set_var("RUST_LOG", filter),
        None => std::env::remove_var("RUST_LOG"),
    }
    let dir = tempfile::tempdir().unwrap();
    let (log_dir, guard) = whittle_app::logging::init(Some(dir.path()));
    assert_eq!(log_dir.as_deref(), Some(dir.path()));

    let setup = Setup::new();
    let runs = Arc::new(WindowRuns::default());
    let (_, rx) = setup.start(&runs, 30);
    let (events, result) = drain(&rx);
    assert!(!events.is_empty());
    assert_eq!(result.summary.minimal_path, vec![1, 10, 11, 12]);
    drop(guard); // flushes the non-blocking writer

    let mut text = String::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.starts_with("whittle") && name.ends_with(".log"),
            "{name}"
        );
        text.push_str(&std::fs::read_to_string(&path).unwrap());
    }
    assert!(
        text.contains("minimize run started"),
        "the run is logged:\n{text}"
    );
    assert!(
        text.contains("minimize run ended"),
        "its end is logged:\n{text}"
    );
    text
}

fn assert_no_typed_value(text: &str) {
    for value in TYPED {
        let at = text.find(value).map(|i| {
            let bytes = text.as_bytes();
            String::from_utf8_lossy(&bytes[i.saturating_sub(300)..(i + 100).min(bytes.len())])
                .into_owned()
        });
        assert_eq!(at, None, "{value:?} reached the log file");
    }
}

#[test]
fn a_run_is_logged_without_any_typed_value() {
    if !alone::in_own_process("log_file::a_run_is_logged_without_any_typed_value") {
        return;
    }
    assert_no_typed_value(&logged_run(None));
}

/// At trace rmcp would log every call whole, the search text it types included: it
/// stays at warn whatever `RUST_LOG` says (`whittle_service::api::LOG_CEILING`), while
/// Whittle's own lines are all there (each tool call, its typed text `[redacted]`).
#[test]
fn a_run_logged_at_trace_holds_no_typed_value() {
    if !alone::in_own_process("log_file::a_run_logged_at_trace_holds_no_typed_value") {
        return;
    }
    let text = logged_run(Some("trace"));
    assert!(
        text.contains("tool call") && text.contains("[redacted]"),
        "trace logs were not on:\n{}",
        &text[..text.len().min(2_000)]
    );
    assert_no_typed_value(&text);
}
