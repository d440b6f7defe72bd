//! A step's `action` and `notes` (new `notes.replay` JSON and legacy `key=value` text)
//! through the replay planner: never a panic, and every repro step lands in the plan.
//! Input: `action`, a newline, then `notes`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::model::{Step, StepResult};
use whittle_core::plan::build_plan;

fn step(index: u32, action: &str, notes: &str) -> Step {
    Step {
        index,
        ts: None,
        action: action.to_owned(),
        result: StepResult::Ok,
        notes: notes.to_owned(),
        screenshot_src: None,
        screenshot_redacted: false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (action, notes) = text.split_once('\n').unwrap_or((text, ""));
    let steps = [
        step(1, "launch app", ""),
        step(2, action, notes),
        // The same notes under a neutral action: the notes alone decide the replay.
        step(3, "tap", notes),
        step(4, notes, action),
    ];
    let plan = build_plan(&steps, &[1, 2, 3, 4]).expect("every index exists");
    assert_eq!(plan.steps.len(), 4);
});
