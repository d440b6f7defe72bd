//! The app's log file after a real run of the demo's checkout session: the run is
//! there (so the file is worth revealing), and no value the tester typed is — neither the
//! private e-mail the plan skips nor the search text it replays. Run in a process of its
//! own (`alone`): it installs the process's logger and clears `RUST_LOG`.

use crate::alone;
use crate::common;

use std::sync::Arc;

use common::*;
use whittle_app::runs::WindowRuns;

const TYPED: [&str; 3] = ["qa.tester", "example.com", "espresso"];

#[test]
fn a_run_is_logged_without_any_typed_value() {
    if !alone::in_own_process("log_file::a_run_is_logged_without_any_typed_value") {
        return;
    }
    // What a user gets: the default filter (no RUST_LOG).
    std::env::remove_var("RUST_LOG");
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
    for value in TYPED {
        assert!(
            !text.contains(value),
            "{value:?} reached the log file:\n{text}"
        );
    }
}
