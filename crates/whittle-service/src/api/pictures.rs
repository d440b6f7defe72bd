//! The screenshot viewer's actions over an evidence session's pictures (the attempts'
//! screenshots and the filmstrip's frames alike): masked images only, as data URLs (so
//! nothing lands in a web view's cache), reviewer masks burned into the archived files,
//! previews of unapplied masks, omissions and the review checklist. Every picture name
//! from a front end is parsed once into a [`PictureName`].

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use whittle_core::session::{resolve_session_dir, validate_session_id, SessionIdError};

// Defined with the thumbnails; the window's pictures are all data URLs.
pub use crate::evidence::png_data_url;
use crate::evidence::{
    apply_masks, mark_reviewed, omit_shot, preview_masks, review_checklist, review_shot,
    session_step_png, thumbnail_png, PictureName, ReviewChecklist, THUMBNAIL_HEIGHT,
};
use crate::mask::{MaskRect, MaskStyle};

/// Why a picture action failed; front ends switch on `kind`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PictureError {
    #[error("{id:?} is not a session name: {problem}")]
    InvalidSessionId { id: String, problem: SessionIdError },
    /// The picture, its folder or its record cannot be read or changed; `detail` is the
    /// reader's own sentence.
    #[error("the screenshot cannot be used: {detail}")]
    Unavailable { detail: String },
}

impl PictureError {
    /// The stable code: its `kind` in JSON.
    pub fn code(&self) -> &'static str {
        match self {
            PictureError::InvalidSessionId { .. } => "invalid_session_id",
            PictureError::Unavailable { .. } => "unavailable",
        }
    }
}

fn unavailable(reason: impl ToString) -> PictureError {
    PictureError::Unavailable {
        detail: reason.to_string(),
    }
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScreenshotView {
    /// The evidence session the image belongs to: with `name`, its full identity.
    pub evidence_session: String,
    /// The picture: an attempt's screenshot or a filmstrip frame.
    pub name: String,
    pub data_url: String,
    pub width: u32,
    pub height: u32,
    /// Already burned into the image.
    pub masks: Vec<MaskRect>,
    pub style: MaskStyle,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MaskRequest {
    pub workspace: String,
    pub evidence_session: String,
    /// Picture names: attempts' screenshots and filmstrip frames alike.
    pub screenshots: Vec<String>,
    pub rects: Vec<MaskRect>,
    pub style: MaskStyle,
}

/// Masks the reviewer is still editing on one screenshot.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MaskPreviewRequest {
    pub workspace: String,
    pub evidence_session: String,
    pub screenshot: String,
    pub rects: Vec<MaskRect>,
    pub style: MaskStyle,
}

/// One masked region exactly as Apply will burn it, to lay over the image.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MaskPatchView {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    pub data_url: String,
}

/// A session folder of the workspace, by id (evidence sessions are sessions too).
pub fn evidence_dir(workspace: &str, evidence_session: &str) -> Result<PathBuf, PictureError> {
    validate_session_id(evidence_session).map_err(|problem| PictureError::InvalidSessionId {
        id: evidence_session.to_owned(),
        problem,
    })?;
    resolve_session_dir(Path::new(workspace), evidence_session).map_err(unavailable)
}

fn picture(name: &str) -> Result<PictureName, PictureError> {
    name.parse().map_err(unavailable)
}

/// A small preview of an archived (masked) picture, for its history row.
pub fn thumbnail(
    workspace: &str,
    evidence_session: &str,
    name: &str,
) -> Result<String, PictureError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    let shot = review_shot(&dir, picture(name)?).map_err(unavailable)?;
    let small = thumbnail_png(&shot.png, name, THUMBNAIL_HEIGHT).map_err(unavailable)?;
    Ok(png_data_url(&small))
}

/// A small preview of the recorder's screenshot of a step (`screenshot_src`).
pub fn step_thumbnail(
    workspace: &str,
    session_id: &str,
    src: &str,
) -> Result<String, PictureError> {
    let dir = evidence_dir(workspace, session_id)?;
    let png = session_step_png(&dir, src).map_err(unavailable)?;
    let small = thumbnail_png(&png, src, THUMBNAIL_HEIGHT).map_err(unavailable)?;
    Ok(png_data_url(&small))
}

pub fn view(
    workspace: &str,
    evidence_session: &str,
    name: &str,
) -> Result<ScreenshotView, PictureError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    let shot = review_shot(&dir, picture(name)?).map_err(unavailable)?;
    Ok(ScreenshotView {
        evidence_session: evidence_session.to_owned(),
        name: shot.name.to_string(),
        data_url: png_data_url(&shot.png),
        width: shot.width,
        height: shot.height,
        masks: shot.record.masks,
        style: shot.record.style,
    })
}

pub fn apply(request: &MaskRequest) -> Result<u32, PictureError> {
    let dir = evidence_dir(&request.workspace, &request.evidence_session)?;
    let pictures = request
        .screenshots
        .iter()
        .map(|name| picture(name))
        .collect::<Result<Vec<_>, _>>()?;
    apply_masks(&dir, &pictures, &request.rects, request.style).map_err(unavailable)
}

/// The reviewer's unapplied masks rendered by the burning code itself, region by region
/// (only masked pixels of an already-masked image cross to the window).
pub fn preview(request: &MaskPreviewRequest) -> Result<Vec<MaskPatchView>, PictureError> {
    let dir = evidence_dir(&request.workspace, &request.evidence_session)?;
    let shown = picture(&request.screenshot)?;
    let patches = preview_masks(&dir, shown, &request.rects, request.style).map_err(unavailable)?;
    Ok(patches
        .into_iter()
        .map(|p| MaskPatchView {
            x: p.x,
            y: p.y,
            w: p.w,
            h: p.h,
            data_url: png_data_url(&p.png),
        })
        .collect())
}

pub fn omit(workspace: &str, evidence_session: &str, name: &str) -> Result<(), PictureError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    omit_shot(&dir, picture(name)?).map_err(unavailable)
}

/// The reviewer's checklist over the session's pictures (its `review.json`).
pub fn checklist(workspace: &str, evidence_session: &str) -> Result<ReviewChecklist, PictureError> {
    Ok(review_checklist(&evidence_dir(
        workspace,
        evidence_session,
    )?))
}

/// Ticks (or unticks) one picture as checked by a person.
pub fn mark(
    workspace: &str,
    evidence_session: &str,
    name: &str,
    reviewed: bool,
) -> Result<ReviewChecklist, PictureError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    mark_reviewed(&dir, picture(name)?, reviewed).map_err(unavailable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_the_kind_its_json_carries() {
        let all = [
            PictureError::InvalidSessionId {
                id: "..".into(),
                problem: SessionIdError::DotName,
            },
            PictureError::Unavailable { detail: "d".into() },
        ];
        for error in &all {
            let json = serde_json::to_value(error).unwrap();
            assert_eq!(json["kind"], error.code(), "{json}");
        }
        assert_eq!(
            serde_json::to_value(&all[0]).unwrap(),
            serde_json::json!({ "kind": "invalid_session_id", "id": "..", "problem": { "kind": "dot_name" } })
        );
    }

    #[test]
    fn a_path_is_refused_with_its_typed_problem() {
        let refused = evidence_dir("/w", "a/b").unwrap_err();
        assert_eq!(
            refused,
            PictureError::InvalidSessionId {
                id: "a/b".into(),
                problem: SessionIdError::InvalidChar {
                    found: '/',
                    position: 2
                },
            }
        );
    }
}
