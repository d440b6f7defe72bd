//! What the run panel sends to start or resume a run, and the run job it stands for:
//! the counts are checked once, by the application API (`count_of`), into its `RunSpec`.

use serde::Deserialize;
use whittle_core::strategy::SearchStrategy;
use whittle_service::api::{
    count_of, AskedRun, CountField, InvalidCount, ResumeOptions, RunJob, RunSpec,
};

/// What the run panel asks for.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct RunRequest {
    pub workspace: String,
    pub session_id: String,
    pub crash_id: String,
    /// The replay budget (>= 1).
    pub max_replays: u32,
    /// `None` lets Phase 0 pick the only (or first) device.
    pub device: Option<String>,
    /// The search strategy; the seed's unless the user opts in to `binary` or `flaky`.
    pub strategy: SearchStrategy,
    /// Replays of the full path allowed until it reproduces (>= 1); absent = 1, the
    /// seed's single try.
    #[serde(default)]
    pub baseline_tries: Option<u32>,
    /// How many devices replay at once (>= 1).
    pub devices: u32,
    /// The window's language (`en`, `zh-CN`): the result's report text is worded in it.
    pub locale: String,
    /// *Re-prove on this device*: the evidence session of a run made elsewhere, whose
    /// minimal path the run starts from (`session_id` and `crash_id` are that run's,
    /// as `api::reproof_spec` reads them); absent for every other run.
    #[serde(default)]
    pub reprove: Option<String>,
}

impl RunRequest {
    pub fn spec(&self) -> Result<RunSpec, InvalidCount> {
        Ok(RunSpec::asked(
            self.session_id.clone(),
            AskedRun {
                crash: Some(self.crash_id.clone()),
                max_replays: Some(count_of(CountField::MaxReplays, self.max_replays)?),
                device: self.device.clone().filter(|d| !d.is_empty()),
                strategy: Some(self.strategy),
                devices: Some(count_of(CountField::Devices, self.devices)?),
                baseline_tries: self
                    .baseline_tries
                    .map(|n| count_of(CountField::BaselineTries, n))
                    .transpose()?,
                // The window refuses at once and names the holder; the tester chooses.
                wait_device: None,
                package: None,
            },
        ))
    }
}

/// What *Resume* asks for: an interrupted (or failed, or cancelled) run of the workspace,
/// to go on from its journal with what it recorded (session, crash, strategy, budget).
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ResumeRequest {
    pub workspace: String,
    pub evidence_session: String,
    /// The window's language, as in [`RunRequest`].
    pub locale: String,
}

impl ResumeRequest {
    pub fn job(&self) -> RunJob {
        RunJob::Resume(ResumeOptions::new(self.evidence_session.clone()))
    }
}
