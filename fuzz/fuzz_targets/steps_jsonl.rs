//! `steps.jsonl` through the parser `load_session` uses: never a panic; an accepted file
//! has indexes 1..=n in order; a refused one names the file and the line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_steps, STEPS_FILE};

fuzz_target!(|data: &[u8]| {
    match parse_steps(data) {
        Ok(steps) => {
            for (position, step) in steps.iter().enumerate() {
                assert_eq!(step.index as usize, position + 1);
            }
        }
        Err(e) => {
            assert_eq!(e.file, STEPS_FILE);
            assert!(e.line.is_some(), "no line in: {e}");
            assert!(e.to_string().starts_with("steps.jsonl line "));
        }
    }
});
