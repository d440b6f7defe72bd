//! The application layer's readers of untrusted JSON — a run's `result.json` and
//! `journal.jsonl`, a session's sidecar, a bundle's files — refuse input nested past
//! `MAX_NESTING_DEPTH` with a typed error naming the limit and the line, before serde
//! builds anything, on a thread with a tokio worker's stack (2 MiB, where `whittle mcp`
//! calls them). The readers that treat a bad file as absent rely on serde_json's own
//! limit (128): one of them is read here just inside and far past it.

use std::path::Path;

use crate::sidecar_support::entry;
use whittle_core::model::SIDECAR_FILE;
use whittle_core::nesting::{TooDeep, MAX_NESTING_DEPTH};
use whittle_service::config::Config;
use whittle_service::export::{read_bundle, ExportError};
use whittle_service::result::{read_result, ResultFileError};
use whittle_service::run::{approved_runs, parse_journal, JournalError};
use whittle_service::sidecar::{read_sidecar, SidecarError};

const WORKER_STACK: usize = 2 * 1024 * 1024;

fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .expect("the reader panicked")
}

/// An object whose second line holds a list (or object) nested `levels` deep.
fn nested_file(levels: usize, objects: bool) -> String {
    let (open, close) = if objects {
        ("{\"a\": ", "}")
    } else {
        ("[", "]")
    };
    format!(
        "{{\"schema\": 1,\n \"x\": {}1{}}}\n",
        open.repeat(levels),
        close.repeat(levels)
    )
}

fn refused_at_line_2(deep: &TooDeep) {
    assert_eq!((deep.limit, deep.line), (MAX_NESTING_DEPTH, 2), "{deep}");
}

#[test]
fn result_sidecar_and_bundle_files_nested_past_the_limit_are_refused_typed() {
    for levels in [1_000, 100_000] {
        for objects in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let text = nested_file(levels, objects);
            std::fs::write(dir.path().join("result.json"), &text).unwrap();
            std::fs::write(dir.path().join(SIDECAR_FILE), &text).unwrap();
            std::fs::write(dir.path().join("manifest.json"), &text).unwrap();
            let at = dir.path().to_path_buf();
            let (result, sidecar, bundle) =
                on_worker_stack(move || (read_result(&at), read_sidecar(&at), read_bundle(&at)));
            match result {
                Err(ResultFileError::TooDeep { source, .. }) => refused_at_line_2(&source),
                other => panic!("result.json nested {levels} deep: {other:?}"),
            }
            match sidecar {
                Err(SidecarError::TooDeep { source, .. }) => refused_at_line_2(&source),
                other => panic!("the sidecar nested {levels} deep: {:?}", other.err()),
            }
            match bundle {
                Err(ExportError::TooDeep { source, .. }) => refused_at_line_2(&source),
                other => panic!("manifest.json nested {levels} deep: {:?}", other.err()),
            }
        }
    }
}

#[test]
fn a_journal_line_nested_past_the_limit_is_damage_named_by_its_line_and_the_limit() {
    for levels in [1_000, 100_000] {
        let journal = format!(
            "{{\"record\": \"round\", \"x\": {}1{}}}\n{{\"record\": \"round\"}}\n",
            "[".repeat(levels),
            "]".repeat(levels)
        );
        let read = on_worker_stack(move || parse_journal(journal.as_bytes()).map(drop));
        match read {
            Err(JournalError::Damaged {
                line: 1, problem, ..
            }) => {
                assert!(problem.contains("deeper than 64 levels"), "{problem}");
            }
            other => panic!("a journal line nested {levels} deep: {other:?}"),
        }
    }
}

#[test]
fn readers_without_their_own_check_hold_at_serdes_limit_on_a_worker_stack() {
    // The approved runs of `sessions` and `past_runs` read the sidecar leniently. A
    // field the type does not name is skipped by serde_json without recursion, however
    // deep: the entry beside it is read either way, and nothing overflows.
    for levels in [120, 100_000] {
        let workspace = tempfile::tempdir().unwrap();
        let id = "2026-05-14_160354_checkout-npe";
        let session = workspace.path().join("sessions").join(id);
        std::fs::create_dir_all(&session).unwrap();
        let mut sidecar = serde_json::json!({
            "schema": whittle_core::model::SIDECAR_SCHEMA,
            "crashes": {"c1": entry(&[1, 2])},
        })
        .to_string();
        sidecar.insert_str(
            sidecar.len() - 1,
            &format!(", \"x\": {}1{}", "[".repeat(levels), "]".repeat(levels)),
        );
        std::fs::write(session.join(SIDECAR_FILE), sidecar).unwrap();
        let root = workspace.path().to_path_buf();
        let approved = on_worker_stack(move || approved_runs(&root, id));
        assert_eq!(
            approved.get("c1").map(String::as_str),
            Some("2025-01-01_120000_minimize-c1"),
            "nested {levels} deep"
        );
    }
    // whittle.json is the user's own file, but read the same way: serde_path_to_error's
    // wrappers cost the most stack per level, and hold at serde's limit.
    for levels in [120, 100_000] {
        let text = format!(
            "{{\"workspace\": \"w\", \"x\": {}1{}}}",
            "[".repeat(levels),
            "]".repeat(levels)
        );
        let parsed =
            on_worker_stack(move || Config::parse(&text, Path::new("whittle.json")).map(drop));
        assert!(
            parsed.is_err(),
            "a config without servers is refused, not read"
        );
    }
}
