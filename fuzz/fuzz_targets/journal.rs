//! A run's `journal.jsonl` through the reader `--resume` uses, on a tokio worker's stack,
//! then the engine rebuilt from its records: never a panic or a stack overflow; a
//! refusal names the file; a journal that reads back either rebuilds the engine or is
//! refused as not matching it.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use libfuzzer_sys::fuzz_target;
use whittle_service::run::{parse_journal, restore, JOURNAL_FILE};
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    let journal = match on_worker_stack(|| parse_journal(data)) {
        Ok(journal) => journal,
        Err(e) => {
            assert!(e.to_string().starts_with(JOURNAL_FILE), "{e}");
            return;
        }
    };
    let header = &journal.header;
    // Long paths and huge budgets make a slow run, not a wrong one: keep each input short.
    if header.candidates.len() > 64 || header.max_replays > 2000 {
        return;
    }
    let Ok(engine) = header
        .strategy
        .reducer(header.candidates.clone(), header.max_replays)
    else {
        return;
    };
    if let Ok(restored) = restore(engine, &journal.rounds, &journal.attempts) {
        assert!(restored.restored as usize <= journal.attempts.len());
    }
});
