//! One run, assembled the same way for every front end: connect the configured servers,
//! run Phases 0–5 (a new run, or one resumed from its journal) with every event handed
//! to the caller, and shut the servers down whatever happened. Cancelling is the
//! caller's token: the run then still stops its capture and finalizes its evidence.

use tokio_util::sync::CancellationToken;

use super::refusal::RunRefusal;
use crate::client::{Hub, HubError};
use crate::config::Config;
use crate::run::{minimize, resume, ResumeOptions, RunError, RunEvents, RunOutcome, RunSpec};

/// What to run once the servers are up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunJob {
    New(RunSpec),
    /// An interrupted (or failed, or cancelled) run, going on from its journal.
    Resume(ResumeOptions),
}

/// A run that did not start, or stopped before its evidence existed. Once the evidence
/// exists, every ending (failures and a cancel included) is a [`RunOutcome`].
#[derive(Debug, thiserror::Error)]
pub enum RunFailure {
    #[error("the device servers did not start: {0}")]
    Servers(#[from] HubError),
    #[error(transparent)]
    Run(#[from] RunError),
}

impl RunFailure {
    /// The stable code: the refusal's own for a run that was refused.
    pub fn code(&self) -> &'static str {
        match self {
            RunFailure::Servers(_) => "servers_unavailable",
            RunFailure::Run(e) => super::RunRefusal::of(e).code(),
        }
    }
}

impl RunFailure {
    /// The typed cause, for a front end to act on.
    pub fn refusal(&self) -> RunRefusal {
        match self {
            RunFailure::Servers(e) => RunRefusal::of_servers(e),
            RunFailure::Run(e) => RunRefusal::of(e),
        }
    }
}

/// Runs `job` on the servers of `config` (see the module documentation).
pub async fn run(
    config: &Config,
    job: RunJob,
    on_event: impl RunEvents,
    cancel: CancellationToken,
) -> Result<RunOutcome, RunFailure> {
    let hub = Hub::connect(config).await?;
    let outcome = match job {
        RunJob::New(spec) => minimize(&hub, config, spec, on_event, cancel).await,
        RunJob::Resume(opts) => resume(&hub, config, opts, on_event, cancel).await,
    };
    hub.shutdown().await;
    Ok(outcome?)
}
