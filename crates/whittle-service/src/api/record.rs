//! Recording an imported session: one replay of its flow on a device, with the servers
//! started for it and shut down after, whatever happened.

use tokio_util::sync::CancellationToken;

use crate::client::{Hub, HubError};
use crate::config::Config;
use crate::import::{record_session, RecordError, RecordOptions, RecordOutcome};

#[derive(Debug, thiserror::Error)]
pub enum RecordFailure {
    #[error("the device servers did not start: {0}")]
    Servers(#[from] HubError),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Replays `opts.session` once and records the crashes it causes.
pub async fn record(
    config: &Config,
    opts: &RecordOptions,
    cancel: &CancellationToken,
) -> Result<RecordOutcome, RecordFailure> {
    let hub = Hub::connect(config).await?;
    let outcome = record_session(&hub, config, opts, cancel).await;
    hub.shutdown().await;
    Ok(outcome?)
}
