//! Element keys (`text:`, `label:`, `class:`, `bounds:`, ids) and typed values through the
//! replay planner, in the new `notes.replay` format: never a panic. The first byte picks
//! the action type; the rest is the key and the typed value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::model::{Step, StepResult};
use whittle_core::plan::build_plan;

const ACTIONS: &[&str] = &["tap", "input_text", "launch", "press_button", "swipe"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(key) = std::str::from_utf8(rest) else {
        return;
    };
    let action_type = ACTIONS[usize::from(pick) % ACTIONS.len()];
    let notes = serde_json::json!({
        "replay": {
            "action_type": action_type,
            "element_key": key,
            "input_value": key,
            "button": key,
        }
    })
    .to_string();
    let step = Step {
        index: 1,
        ts: None,
        action: String::new(),
        result: StepResult::Ok,
        notes,
        screenshot_src: None,
        screenshot_redacted: false,
    };
    let plan = build_plan(&[step], &[1]).expect("step 1 exists");
    assert_eq!(plan.steps.len(), 1);
});
