//! A Maestro flow through `whittle import`'s parser, on a tokio worker's stack: never a
//! panic, a hang or a stack overflow (alias bombs, deep nesting); an error names the
//! file, and a refusal for nesting names the limit and the line; an accepted flow's
//! steps become session steps the plan builder reads without error.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use libfuzzer_sys::fuzz_target;
use whittle_core::import::{maestro, FlowFormat, ImportProblem};
use whittle_core::nesting::MAX_NESTING_DEPTH;
use whittle_core::plan::build_plan;
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    match on_worker_stack(|| maestro::parse("flow.yaml", data)) {
        Ok(flow) => {
            assert!(!flow.steps.is_empty());
            let steps: Vec<_> = flow
                .steps
                .iter()
                .zip(1u32..)
                .map(|(s, i)| s.to_step(i, "2026-01-01T00:00:00Z", FlowFormat::Maestro))
                .collect();
            let path: Vec<u32> = steps.iter().map(|s| s.index).collect();
            build_plan(&steps, &path).expect("imported steps form a plan");
        }
        Err(e) => {
            assert_eq!(e.file, "flow.yaml");
            assert!(e.to_string().starts_with("flow.yaml"));
            if let ImportProblem::TooDeep { limit } = e.problem {
                assert_eq!(limit, MAX_NESTING_DEPTH);
                assert!(e.line.is_some(), "no line in: {e}");
            }
        }
    }
});
