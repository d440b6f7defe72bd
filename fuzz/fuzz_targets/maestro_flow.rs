//! A Maestro flow through `whittle import`'s parser: never a panic or a hang (alias
//! bombs, deep nesting); an error names the file; an accepted flow's steps become
//! session steps the plan builder reads without error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::import::{maestro, FlowFormat};
use whittle_core::plan::build_plan;

fuzz_target!(|data: &[u8]| {
    match maestro::parse("flow.yaml", data) {
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
        }
    }
});
