//! `meta.json` through the parser `load_session` uses, on a tokio worker's stack: never a
//! panic or a stack overflow; errors name the file, and a refusal for nesting its line.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_meta, SessionProblem, META_FILE};
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = on_worker_stack(|| parse_meta(data)) {
        assert_eq!(e.file, META_FILE);
        let named = match e.line {
            Some(line) => format!("meta.json line {line}: "),
            None => "meta.json: ".to_owned(),
        };
        assert!(e.to_string().starts_with(&named), "{e}");
        assert_eq!(
            e.line.is_some(),
            matches!(e.problem, SessionProblem::TooDeep { .. }),
            "{e}"
        );
    }
});
