//! `crashes.jsonl` through the parser `load_session` uses, checked against steps 1..=5:
//! never a panic; an accepted crash's `repro_path` names only existing steps; a refused
//! file names the file and the line.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_crashes, CRASHES_FILE};

fuzz_target!(|data: &[u8]| {
    let steps: BTreeSet<u32> = (1..=5).collect();
    match parse_crashes(data, Some(&steps)) {
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
