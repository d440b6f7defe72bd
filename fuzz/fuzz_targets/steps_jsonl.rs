//! `steps.jsonl` through the parser `load_session` uses, on a tokio worker's stack: never
//! a panic or a stack overflow; an accepted file has indexes 1..=n in order; a refused
//! one names the file and the line.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_steps, STEPS_FILE};
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    match on_worker_stack(|| parse_steps(data)) {
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
