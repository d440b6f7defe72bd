//! The window's side of issue 18: *Import…* (a Maestro flow or a Robo script becomes a
//! session), *Run once and record* (one replay finds its crashes), *Copy as Markdown*
//! (the ticket text of a result) and the result's filmstrip.

use std::path::Path;

use serde::Serialize;
use tokio_util::sync::CancellationToken;
use whittle_service::api::ticket_markdown;
use whittle_service::api::RecordFailure;
use whittle_service::api::{RecordOptions, RecordOutcome};

use crate::app_config::config_for;
use crate::error::AppError;
use whittle_service::api::pictures::{evidence_dir, png_data_url};
use whittle_service::api::ShotOmission;

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
    outcome.map_err(|e| match e {
        RecordFailure::Servers(e) => AppError::ServersUnavailable {
            reason: e.to_string(),
        },
        RecordFailure::Record(e) => AppError::RecordFailed {
            reason: e.to_string(),
        },
    })
}

/// The ticket text of a finished run's evidence session.
pub fn markdown(workspace: &str, evidence_session: &str) -> Result<String, AppError> {
    evidence_dir(workspace, evidence_session)?;
    ticket_markdown(Path::new(workspace), evidence_session).map_err(|e| AppError::ExportFailed {
        reason: e.to_string(),
    })
}

/// The filmstrip the final confirmation took, for the result view.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct FilmstripView {
    /// The replay the frames come from.
    pub attempt: u32,
    pub frames: Vec<FrameView>,
    /// Device time every frame of the run cost.
    pub extra_device_ms: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct FrameView {
    /// 1 = after the launch; then one per step, as the exported steps are numbered.
    pub position: u32,
    /// The original session's step it follows.
    pub step: Option<u32>,
    /// The frame's picture name, to open it in the screenshot viewer (masked, checked
    /// and omitted there like a screenshot); `None` when it is missing.
    pub name: Option<String>,
    /// A small PNG data URL of the masked frame; `None` when it was omitted.
    pub image: Option<String>,
    pub omitted: Option<ShotOmission>,
}

/// Frame height in the result view.
const FRAME_HEIGHT: u32 = 240;

pub fn filmstrip(
    workspace: &str,
    evidence_session: &str,
) -> Result<Option<FilmstripView>, AppError> {
    let strip =
        whittle_service::api::filmstrip(Path::new(workspace), evidence_session, FRAME_HEIGHT)?;
    Ok(strip.map(|strip| FilmstripView {
        attempt: strip.attempt,
        frames: strip
            .frames
            .into_iter()
            .map(|frame| FrameView {
                position: frame.position,
                step: frame.step,
                name: frame.name.map(|n| n.to_string()),
                image: frame.png.as_deref().map(png_data_url),
                omitted: frame.omitted,
            })
            .collect(),
        extra_device_ms: strip.extra_device_ms,
    }))
}
