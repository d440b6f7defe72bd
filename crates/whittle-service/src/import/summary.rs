use serde::Serialize;
use whittle_core::model::Step;
use whittle_core::plan::{build_plan, Disposition};

/// What an import made, for the CLI (`--json`) and the app.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportSummary {
    pub session_id: String,
    pub session_dir: String,
    pub format: whittle_core::import::FlowFormat,
    pub package: String,
    pub steps: u32,
    /// Steps a replay performs (launch excluded).
    pub replayable: u32,
    /// Steps kept but not replayed, with the plan's reason.
    pub skipped: Vec<SkippedStep>,
    /// What the file held that is not a step (hooks, execution options).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkippedStep {
    pub step: u32,
    pub description: String,
    pub reason: String,
}

impl ImportSummary {
    /// Reads the steps the way a minimize run will: through the same plan builder.
    pub(crate) fn of_steps(steps: &[Step]) -> (u32, Vec<SkippedStep>) {
        let path: Vec<u32> = steps.iter().map(|s| s.index).collect();
        let Ok(plan) = build_plan(steps, &path) else {
            return (0, Vec::new());
        };
        let skipped = plan
            .steps
            .iter()
            .filter_map(|s| match &s.disposition {
                Disposition::Skipped { reason } => Some(SkippedStep {
                    step: s.index,
                    description: s.description.clone(),
                    reason: reason.to_string(),
                }),
                _ => None,
            })
            .collect();
        (plan.coverage.replayable, skipped)
    }
}
