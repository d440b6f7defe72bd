//! The filmstrip of a finished run: the masked screens after each step of the minimal
//! path, as the final confirmation took them, each shrunk for a result view (or the
//! reason it is missing), and the extra device time every frame of the run cost. The
//! window shows this record as it is (one shape from the evidence to the screen).

use std::path::Path;

use serde::Serialize;

use super::session_error::{session_dir, SessionReadError};
use crate::evidence::{
    png_data_url, review_shot, thumbnail_png, FilmstripRecord, PictureName, ShotOmission,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Filmstrip {
    /// The replay the frames come from.
    pub attempt: u32,
    pub frames: Vec<FilmFrame>,
    /// Device time every frame of the run cost.
    pub extra_device_ms: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FilmFrame {
    /// 1 = after the launch; then one per step, as the exported steps are numbered.
    pub position: u32,
    /// The original session's step it follows.
    pub step: Option<u32>,
    /// The frame's picture name, to open it in the screenshot viewer (masked, checked
    /// and omitted there like a screenshot); `None` when it is missing.
    #[serde(serialize_with = "picture_name")]
    #[cfg_attr(feature = "specta", specta(type = Option<String>))]
    pub name: Option<PictureName>,
    /// The masked frame `height` pixels high, as a PNG data URL; `None` when it is
    /// missing.
    pub image: Option<String>,
    /// Why the frame is missing, when it is.
    pub omitted: Option<ShotOmission>,
    /// The frame shows the screen right before `step`'s action (which crashed the app),
    /// not after it.
    pub before_action: bool,
}

/// The filmstrip of evidence session `evidence_session`, frames `height` pixels high;
/// `None` when no final confirmation reproduced the crash (nothing to show).
pub fn filmstrip(
    workspace: &Path,
    evidence_session: &str,
    height: u32,
) -> Result<Option<Filmstrip>, SessionReadError> {
    let dir = session_dir(workspace, evidence_session)?;
    let record = FilmstripRecord::read(&dir);
    let Some(strip) = record.strips.iter().find(|s| s.reproduced) else {
        return Ok(None);
    };
    let frames = strip
        .frames
        .iter()
        .zip(1u32..)
        .map(|(frame, position)| {
            // Only a frame's own name: the record is evidence, so untrusted.
            let shown = frame
                .src
                .as_deref()
                .and_then(|src| src.parse::<PictureName>().ok())
                .filter(|picture| picture.frame().is_some())
                .and_then(|picture| review_shot(&dir, picture).ok())
                .and_then(|shot| {
                    let png = thumbnail_png(&shot.png, "frame", height).ok()?;
                    Some((shot.name, png_data_url(&png)))
                });
            let (name, image) = shown.unzip();
            FilmFrame {
                position,
                step: frame.step,
                omitted: match (&image, &frame.omitted) {
                    (None, None) => Some(ShotOmission::Undecodable {
                        detail: "the frame could not be read".into(),
                    }),
                    (_, omitted) => omitted.clone(),
                },
                name,
                image,
                before_action: frame.before_action,
            }
        })
        .collect();
    Ok(Some(Filmstrip {
        attempt: strip.attempt,
        frames,
        extra_device_ms: u32::try_from(record.extra_ms()).unwrap_or(u32::MAX),
    }))
}

/// A picture name as the window names it (`screenshots/…`, `filmstrip/…`).
fn picture_name<S: serde::Serializer>(
    name: &Option<PictureName>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match name {
        Some(name) => serializer.collect_str(name),
        None => serializer.serialize_none(),
    }
}
