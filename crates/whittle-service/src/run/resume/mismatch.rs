//! What differs between a run as its journal recorded it and the same run prepared
//! again now: each difference refuses a resume (`check.rs` finds them).

use std::fmt;

use whittle_core::strategy::SearchStrategy;

/// One way the run prepared now differs from the run the journal recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeMismatch {
    #[error("the files of session {session} changed since the run started")]
    SessionFilesChanged { session: String },
    #[error("the crash's target changed: {recorded} then, {now} now")]
    TargetChanged { recorded: String, now: String },
    #[error("the replayable steps changed: {recorded} then, {now} now")]
    PlanChanged { recorded: String, now: String },
    #[error("the app's version changed: {recorded} then, {now} now")]
    AppVersionChanged { recorded: String, now: String },
    #[error("Whittle's version changed: {recorded} then, {now} now")]
    WhittleVersionChanged { recorded: String, now: String },
    #[error("the run used strategy {recorded}, not {asked}")]
    StrategyChanged {
        recorded: SearchStrategy,
        asked: SearchStrategy,
    },
    #[error("the run's budget was {recorded} replays, not {asked}")]
    BudgetChanged { recorded: u32, asked: u32 },
}

/// Every difference, in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differences(pub Vec<ResumeMismatch>);

impl fmt::Display for Differences {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&words.join("; "))
    }
}
