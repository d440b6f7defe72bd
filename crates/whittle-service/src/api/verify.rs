//! Verifying an exported bundle: its minimal path replayed N times on a device, with the
//! servers started for it and shut down after, whatever happened.

use std::path::Path;

use tokio_util::sync::CancellationToken;

use crate::client::{Hub, HubError};
use crate::config::Config;
use crate::run::{verify_bundle, VerifyError, VerifyReport};

#[derive(Debug, thiserror::Error)]
pub enum VerifyFailure {
    #[error("the device servers did not start: {0}")]
    Servers(#[from] HubError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// Replays the minimal path of the bundle in `bundle_dir` `runs` times on `device` (or
/// the only online device), until `cancel` (then the replay in flight is dropped and
/// the servers are shut down all the same).
pub async fn verify(
    config: &Config,
    bundle_dir: &Path,
    runs: u32,
    device: Option<&str>,
    cancel: &CancellationToken,
) -> Result<VerifyReport, VerifyFailure> {
    let hub = Hub::connect(config).await?;
    let report = verify_bundle(&hub, config, bundle_dir, runs, device, cancel).await;
    hub.shutdown().await;
    Ok(report?)
}
