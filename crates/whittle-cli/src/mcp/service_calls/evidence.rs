//! The evidence of a run as an agent reads it: its result with its pictures and files
//! (`result`), one picture as an image (`screenshot`), the ticket text
//! (`ticket_markdown`) and the `whittle://` resources. Only a minimize run's evidence
//! session is read, and of it only the archived pictures (masked when they were archived;
//! the unmasked image is never kept), through the viewer's own readers (`api::pictures`,
//! `evidence::review_shot`: canonical names only, no symlink followed), and the bundle's
//! files rendered from it by the export's own renderers.

use std::path::PathBuf;

use whittle_core::session::{parse_meta, META_FILE};
use whittle_service::api::{self, pictures, ApproveBlock, EvidenceExportError};
use whittle_service::api::{maestro_flow, robo_script};
use whittle_service::api::{review_shot, PictureName, ReviewChecklist, ReviewError};

use whittle_service::api::read_result;
use whittle_service::api::Config;
use whittle_service::api::PendingResult;
use whittle_service::api::ResultFileError;

use crate::commands::export::exit_of;
use crate::exit::Exit;
use crate::mcp::args::ScreenshotArgs;
use crate::mcp::evidence_answers::{
    FileAnswer, PictureAnswer, ResultAnswer, ReviewState, ScreenshotAnswer, TicketAnswer,
};
use crate::mcp::failure::ToolFailure;
use crate::mcp::lookup::{resolve, Listed};
use crate::mcp::resources::{BundleFile, EvidenceResource, EvidenceUri};
use crate::mcp::run_answers::UserNext;

/// `result`: the run's `result.json`, how the user approves it, its pictures and files.
pub fn result_answer(config: &Config, evidence_session: &str) -> Result<ResultAnswer, ToolFailure> {
    let result = result(config, evidence_session)?;
    let (next, approved, approve_blocked) =
        approval(config, evidence_session, &result.original_session);
    let checklist = checklist(config, evidence_session)?;
    Ok(ResultAnswer {
        next,
        approved,
        approve_blocked,
        pictures: pictures_of(evidence_session, &checklist),
        review: checklist.summary,
        files: files_of(config, evidence_session),
        result,
    })
}

/// How the user approves the run: the window's reopened run decides it (its evidence
/// checked against the session as it is), so the answer says what the window offers.
fn approval(
    config: &Config,
    evidence_session: &str,
    session: &str,
) -> (Option<UserNext>, bool, Option<String>) {
    let Ok(reopened) = api::reopen(&config.workspace, session, evidence_session, None) else {
        return (None, false, None);
    };
    let view = reopened.run.result;
    let approved = view.as_ref().is_some_and(|v| v.approved);
    let (blocked, reprove) = match view.and_then(|v| v.approve_blocked) {
        Some(ApproveBlock::Inconsistent { detail }) => (Some(detail), None),
        Some(ApproveBlock::NotProvenHere { why, next }) => {
            (Some(why.to_string()), Some(UserNext::of(&next)))
        }
        None => (None, None),
    };
    let next = (reopened.approvable.is_some() && !approved)
        .then(|| UserNext::approve(evidence_session))
        .or(reprove);
    (next, approved, blocked)
}

/// The `next` of an answer about the run of `evidence_session`, from its result.
pub fn next_of(config: &Config, evidence_session: &str) -> Option<UserNext> {
    let result = result(config, evidence_session).ok()?;
    approval(config, evidence_session, &result.original_session).0
}

fn checklist(config: &Config, evidence_session: &str) -> Result<ReviewChecklist, ToolFailure> {
    run_evidence(config, evidence_session)?;
    pictures::checklist(&workspace(config), evidence_session)
        .map_err(|e| ToolFailure::new(Exit::Refused, e))
}

fn pictures_of(evidence_session: &str, checklist: &ReviewChecklist) -> Vec<PictureAnswer> {
    checklist
        .shots
        .iter()
        .filter_map(|shot| {
            let picture: PictureName = shot.name.parse().ok()?;
            Some(PictureAnswer {
                name: shot.name.clone(),
                uri: (!shot.omitted).then(|| EvidenceUri::picture(evidence_session, picture)),
                attempt: shot.attempt,
                frame: shot.frame,
                reviewed: shot.reviewed,
                omitted: shot.omitted,
            })
        })
        .collect()
}

/// The bundle's files, when the run has a result to export.
fn files_of(config: &Config, evidence_session: &str) -> Vec<FileAnswer> {
    if api::export_input(&config.workspace, evidence_session).is_err() {
        return Vec::new();
    }
    BundleFile::ALL
        .into_iter()
        .map(|file| FileAnswer {
            name: file.name().to_owned(),
            uri: EvidenceUri::file(evidence_session, file),
            mime_type: file.mime_type().to_owned(),
        })
        .collect()
}

/// `whittle export --markdown`.
pub fn ticket(config: &Config, evidence_session: &str) -> Result<TicketAnswer, ToolFailure> {
    run_evidence(config, evidence_session)?;
    let markdown = api::ticket_markdown(&config.workspace, evidence_session)
        .map_err(|e| export_failure(evidence_session, &e))?;
    Ok(TicketAnswer {
        evidence_session: evidence_session.to_owned(),
        markdown,
        uri: EvidenceUri::file(evidence_session, BundleFile::Repro),
        next: next_of(config, evidence_session),
    })
}

/// A file of the bundle, rendered from the evidence.
pub fn bundle_file(
    config: &Config,
    evidence_session: &str,
    file: BundleFile,
) -> Result<String, ToolFailure> {
    run_evidence(config, evidence_session)?;
    let rendered = match file {
        BundleFile::Repro => api::ticket_markdown(&config.workspace, evidence_session),
        BundleFile::Maestro => {
            api::export_input(&config.workspace, evidence_session).map(|i| maestro_flow(&i))
        }
        BundleFile::Robo => {
            api::export_input(&config.workspace, evidence_session).map(|i| robo_script(&i))
        }
    };
    rendered.map_err(|e| export_failure(evidence_session, &e))
}

fn export_failure(evidence_session: &str, e: &EvidenceExportError) -> ToolFailure {
    let error = match e {
        EvidenceExportError::NoResult(_) | EvidenceExportError::NoResultFile(_) => e.to_string(),
        _ => format!("evidence session {evidence_session:?} cannot be exported: {e}"),
    };
    ToolFailure::new(
        exit_of(e),
        format!(
            "{error}; call `past_runs` with the session it minimized to see how each run ended"
        ),
    )
}

/// One archived picture: the answer, and the masked PNG.
pub fn screenshot(
    config: &Config,
    args: &ScreenshotArgs,
) -> Result<(ScreenshotAnswer, Vec<u8>), ToolFailure> {
    let picture = match args.frame {
        None => PictureName::Screenshot {
            attempt: args.attempt,
        },
        Some(frame) => PictureName::Frame {
            attempt: args.attempt,
            frame,
        },
    };
    let id = &args.evidence_session;
    let (png, width, height, masks) = picture_png(config, id, picture)?;
    let checklist = checklist(config, id)?;
    let shown = pictures_of(id, &checklist)
        .into_iter()
        .find(|p| p.name == picture.to_string())
        .ok_or_else(|| missing(id, picture))?;
    let review = if shown.reviewed {
        ReviewState::Reviewed
    } else {
        ReviewState::NotReviewed
    };
    Ok((
        ScreenshotAnswer {
            evidence_session: id.clone(),
            picture: shown,
            width,
            height,
            masks,
            review,
        },
        png,
    ))
}

/// The masked PNG of `picture`, its size and how many masks it carries.
fn picture_png(
    config: &Config,
    evidence_session: &str,
    picture: PictureName,
) -> Result<(Vec<u8>, u32, u32, u32), ToolFailure> {
    let dir = run_evidence(config, evidence_session)?;
    let shot = review_shot(&dir, picture).map_err(|e| match e {
        ReviewError::Missing(_) | ReviewError::BadName(_) => missing(evidence_session, picture),
        ReviewError::TooLarge { .. } | ReviewError::Decode { .. } => {
            ToolFailure::new(Exit::Refused, e)
        }
        _ => ToolFailure::new(
            Exit::Infrastructure,
            format!("picture {picture} of evidence session {evidence_session:?} cannot be read"),
        ),
    })?;
    let masks = u32::try_from(shot.record.masks.len()).unwrap_or(u32::MAX);
    Ok((shot.png, shot.width, shot.height, masks))
}

fn missing(evidence_session: &str, picture: PictureName) -> ToolFailure {
    ToolFailure::new(
        Exit::Refused,
        format!(
            "evidence session {evidence_session:?} keeps no picture {picture} (omitted by the \
             reviewer, or never taken): call `result` to list its pictures"
        ),
    )
}

/// What `resources/read` serves for `uri`.
pub enum ResourceBody {
    Png(Vec<u8>, ReviewState),
    Text(String, &'static str),
}

pub fn read_resource(config: &Config, uri: &str) -> Result<ResourceBody, ToolFailure> {
    let parsed = EvidenceUri::parse(uri).map_err(|e| ToolFailure::new(Exit::Refused, e))?;
    let id = &parsed.evidence_session;
    match parsed.resource {
        EvidenceResource::Picture(picture) => {
            let (png, ..) = picture_png(config, id, picture)?;
            let reviewed = checklist(config, id)?
                .shots
                .iter()
                .any(|s| s.reviewed && s.name == picture.to_string());
            let state = if reviewed {
                ReviewState::Reviewed
            } else {
                ReviewState::NotReviewed
            };
            Ok(ResourceBody::Png(png, state))
        }
        EvidenceResource::File(file) => Ok(ResourceBody::Text(
            bundle_file(config, id, file)?,
            file.mime_type(),
        )),
    }
}

/// The folder of a minimize run's evidence session, by id: a recorded session (whose
/// screenshots the recorder took, unmasked) is refused.
fn run_evidence(config: &Config, evidence_session: &str) -> Result<PathBuf, ToolFailure> {
    let dir = resolve(config, evidence_session, Listed::Evidence)?;
    let is_run = std::fs::File::open(dir.join(META_FILE))
        .ok()
        .and_then(|file| parse_meta(file).ok())
        .is_some_and(|meta| meta.extra.contains_key("original_session"));
    if !is_run {
        return Err(ToolFailure::new(
            Exit::Refused,
            format!(
                "{evidence_session:?} is not a minimize run's evidence session: call \
                 `past_runs` with the session it minimized to list them"
            ),
        ));
    }
    Ok(dir)
}

fn workspace(config: &Config) -> String {
    config.workspace.display().to_string()
}

/// One evidence run's `result.json`; a run that left none (interrupted) has no result.
pub fn result(config: &Config, evidence_session: &str) -> Result<PendingResult, ToolFailure> {
    let dir = resolve(config, evidence_session, Listed::Evidence)?;
    read_result(&dir).map_err(|e| {
        let id = evidence_session;
        let error = match e {
            ResultFileError::Read { source, .. }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                format!(
                    "evidence session {id:?} has no result.json: it is not a minimize run's \
                     evidence, or its run left no result; call `past_runs` with the session it \
                     minimized to see how each run ended"
                )
            }
            ResultFileError::Read { source, .. } | ResultFileError::Write { source, .. } => {
                format!("cannot read the result.json of {id:?}: {source}")
            }
            ResultFileError::Parse { message, .. } => {
                format!("the result.json of {id:?} is not a Whittle result: {message}")
            }
            ResultFileError::TooDeep { source, .. } => {
                format!("the result.json of {id:?} {source}")
            }
        };
        ToolFailure::new(Exit::Refused, error)
    })
}
