//! A Robo script through `whittle import`'s parser, on a tokio worker's stack: never a
//! panic or a stack overflow; an error names the file, and a refusal for nesting names
//! the limit and the line; an accepted script starts with Robo's launch and forms a plan.
#![no_main]

#[path = "worker_stack.rs"]
mod worker_stack;

use libfuzzer_sys::fuzz_target;
use whittle_core::import::{robo, FlowFormat, ImportProblem, ImportedAction};
use whittle_core::nesting::MAX_NESTING_DEPTH;
use whittle_core::plan::build_plan;
use worker_stack::on_worker_stack;

fuzz_target!(|data: &[u8]| {
    match on_worker_stack(|| robo::parse_for("script.json", data, Some("com.example.shop"))) {
        Ok(script) => {
            assert_eq!(script.steps[0].action, ImportedAction::Launch);
            let steps: Vec<_> = script
                .steps
                .iter()
                .zip(1u32..)
                .map(|(s, i)| s.to_step(i, "2026-01-01T00:00:00Z", FlowFormat::Robo))
                .collect();
            let path: Vec<u32> = steps.iter().map(|s| s.index).collect();
            let plan = build_plan(&steps, &path).expect("imported steps form a plan");
            assert_eq!(plan.setup.first(), Some(&1));
        }
        Err(e) => {
            assert_eq!(e.file, "script.json");
            assert!(e.to_string().starts_with("script.json"));
            if let ImportProblem::TooDeep { limit } = e.problem {
                assert_eq!(limit, MAX_NESTING_DEPTH);
                assert!(e.line.is_some(), "no line in: {e}");
            }
        }
    }
});
