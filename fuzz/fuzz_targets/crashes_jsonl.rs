//! `crashes.jsonl` through the parser `load_session` uses, checked against steps 1..=5:
//! never a panic or a stack overflow (on a tokio worker's stack); an accepted crash's
//! `repro_path` names only existing steps; a refused file names the file and the line.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_crashes, CRASHES_FILE};
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    let steps: BTreeSet<u32> = (1..=5).collect();
    match on_worker_stack(|| parse_crashes(data, Some(&steps))) {
        Ok(crashes) => {
            for crash in &crashes {
                assert!(!crash.crash_id.trim().is_empty());
                assert!(crash.repro_path.iter().all(|i| steps.contains(i)));
            }
        }
        Err(e) => {
            assert_eq!(e.file, CRASHES_FILE);
            assert!(e.line.is_some(), "no line in: {e}");
        }
    }
    // Without steps (the session list's reading) the same text must not panic either.
    let _ = parse_crashes(data, None);
});
