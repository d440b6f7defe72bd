//! Steps and plan lookups shared by the plan tests.

use serde_json::{json, Value};
use whittle_core::model::{Step, StepResult};
use whittle_core::plan::{By, Disposition, SkipReason, Strategy};

pub fn step(index: u32, action: &str, notes: &str) -> Step {
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

/// A new-format step whose `notes` is `{"replay": replay}`.
pub fn new_step(index: u32, replay: Value) -> Step {
    step(
        index,
        "human text",
        &json!({ "replay": replay }).to_string(),
    )
}

pub fn launch(index: u32) -> Step {
    new_step(index, json!({"action_type": "launch"}))
}

pub fn tap(index: u32, key: &str) -> Step {
    new_step(index, json!({"action_type": "tap", "element_key": key}))
}

pub fn id(value: &str) -> Strategy {
    Strategy::new(By::Identifier, value.to_owned())
}

pub fn skip_reason(plan: &whittle_core::plan::ReplayPlan, index: u32) -> Option<SkipReason> {
    plan.steps
        .iter()
        .find(|s| s.index == index)
        .and_then(|s| match &s.disposition {
            Disposition::Skipped { reason } => Some(reason.clone()),
            _ => None,
        })
}
