use serde::Serialize;
use whittle_core::model::Step;
use whittle_core::plan::{build_plan, Disposition, SkipReason, StepWords};

/// What an import made, for the CLI (`--json`) and the app.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportSummary {
    /// The new session's folder (its id).
    pub session_id: String,
    /// Its name, as session lists show it (`meta.json`'s `name`: the one asked for, else
    /// the flow's, else the file's).
    pub name: String,
    pub session_dir: String,
    pub format: whittle_core::import::FlowFormat,
    pub package: String,
    pub steps: u32,
    /// Steps a replay performs (launch excluded).
    pub replayable: u32,
    /// Steps kept but not replayed, with the plan's reason.
    pub skipped: Vec<SkippedStep>,
    /// What the file held that is not a step (hooks, execution options).
    pub notes: Vec<whittle_core::import::ImportNote>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkippedStep {
    pub step: u32,
    /// The action in plain words (English), never with a typed or sensitive value.
    pub description: String,
    /// The same as data, which the window words in its language.
    pub words: StepWords,
    /// Typed, as in the plan (`{code, …}`): the terminal prints its sentence, the window
    /// words it in its language.
    pub reason: SkipReason,
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
                    words: s.words.clone(),
                    reason: reason.clone(),
                }),
                _ => None,
            })
            .collect();
        (plan.coverage.replayable, skipped)
    }
}
