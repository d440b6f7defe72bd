//! The window's side of issue 18: *Import…* (a Maestro flow or a Robo script becomes a
//! session), *Run once and record* (one replay finds its crashes), *Copy as Markdown*
//! (the ticket text of a result) and the result's filmstrip.

use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_service::api::pictures::evidence_dir;
use whittle_service::api::{ticket_markdown, Filmstrip, RecordOptions, RecordOutcome};

use crate::app_config::config_for;
use crate::error::AppError;

/// One replay of an imported session on `device` (or the only device).
pub async fn record(
    config_path: Option<&Path>,
    workspace: &str,
    session_id: &str,
    device: Option<String>,
) -> Result<RecordOutcome, AppError> {
    let config = config_for(config_path, Path::new(workspace))?;
    let opts = RecordOptions {
        session: session_id.to_owned(),
        device,
    };
    let outcome = whittle_service::api::record(&config, &opts, &CancellationToken::new()).await;
    outcome.map_err(|e| AppError::record_failed(&e))
}

/// The ticket text of a finished run's evidence session.
pub fn markdown(workspace: &str, evidence_session: &str) -> Result<String, AppError> {
    evidence_dir(workspace, evidence_session)?;
    ticket_markdown(Path::new(workspace), evidence_session).map_err(AppError::export_failed)
}

/// Frame height in the result view.
const FRAME_HEIGHT: u32 = 240;

/// The filmstrip the final confirmation took, for the result view.
pub fn filmstrip(workspace: &str, evidence_session: &str) -> Result<Option<Filmstrip>, AppError> {
    Ok(whittle_service::api::filmstrip(
        Path::new(workspace),
        evidence_session,
        FRAME_HEIGHT,
    )?)
}
