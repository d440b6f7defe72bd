//! The reviewer's checklist over an evidence session's pictures (its `review.json`):
//! which were checked, which omitted. Shown in the window and recorded in exports.

use whittle_service::evidence::{mark_reviewed, review_checklist, ReviewChecklist};

use crate::error::AppError;
use crate::screenshots::{evidence_dir, picture, unavailable};

pub fn checklist(workspace: &str, evidence_session: &str) -> Result<ReviewChecklist, AppError> {
    Ok(review_checklist(&evidence_dir(
        workspace,
        evidence_session,
    )?))
}

pub fn mark(
    workspace: &str,
    evidence_session: &str,
    name: &str,
    reviewed: bool,
) -> Result<ReviewChecklist, AppError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    mark_reviewed(&dir, picture(name)?, reviewed).map_err(unavailable)
}
