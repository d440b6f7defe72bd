//! Recording an imported session: one replay of its flow on a device, with the servers
//! started for it and shut down after, whatever happened. `import --record` checks
//! everything it can before it writes the session (the flow, the servers, the device
//! and the app on it), so a refusal leaves the workspace as it was.

use tokio_util::sync::CancellationToken;

use super::import::{read_import, ImportRefusal, ImportRequest};
use crate::client::{Hub, HubError};
use crate::config::Config;
use crate::import::{
    record_device, record_session, ImportSummary, RecordError, RecordOptions, RecordOutcome,
};

#[derive(Debug, thiserror::Error)]
pub enum RecordFailure {
    #[error("the device servers did not start: {0}")]
    Servers(#[from] HubError),
    #[error(transparent)]
    Record(#[from] RecordError),
}

impl RecordFailure {
    pub fn code(&self) -> &'static str {
        match self {
            RecordFailure::Servers(_) => "servers_unavailable",
            RecordFailure::Record(_) => "record_failed",
        }
    }
}

/// Why `import --record` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportRecordRefusal {
    #[error(transparent)]
    Import(#[from] ImportRefusal),
    #[error(transparent)]
    Record(#[from] RecordFailure),
}

/// An imported session, and how its one recorded replay went.
#[derive(Debug)]
pub struct ImportRecorded {
    pub summary: ImportSummary,
    pub recorded: Result<RecordOutcome, RecordFailure>,
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

/// Imports `request` and records it on `device` (else the device a minimize run would
/// choose). The flow, the servers, the device and the app on it are checked first: any
/// refusal among them writes nothing.
pub async fn import_and_record(
    config: &Config,
    request: &ImportRequest,
    device: Option<&str>,
    cancel: &CancellationToken,
) -> Result<ImportRecorded, ImportRecordRefusal> {
    let flow = read_import(request)?;
    let hub = Hub::connect(config).await.map_err(RecordFailure::from)?;
    let checked = record_device(&hub, None, device, flow.package()).await;
    let (device, _) = match checked {
        Ok(chosen) => chosen,
        Err(e) => {
            hub.shutdown().await;
            return Err(RecordFailure::from(e).into());
        }
    };
    let summary = match flow.write() {
        Ok(summary) => summary,
        Err(e) => {
            hub.shutdown().await;
            return Err(ImportRefusal::from(e).into());
        }
    };
    let opts = RecordOptions {
        session: summary.session_id.clone(),
        device: Some(device),
    };
    let recorded = record_session(&hub, config, &opts, cancel)
        .await
        .map_err(RecordFailure::from);
    hub.shutdown().await;
    Ok(ImportRecorded { summary, recorded })
}
