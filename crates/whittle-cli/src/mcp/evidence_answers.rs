//! What the evidence tools of `whittle mcp` answer (`result`, `screenshot`,
//! `ticket_markdown`): the result with its pictures and files as `whittle://` resource
//! URIs (readable with `resources/read`; `resources.rs` names them), each picture with
//! its review state, and how the user approves the result.

use schemars::JsonSchema;
use serde::Serialize;
use whittle_service::api::ReviewSummary;

use super::run_answers::UserNext;
use super::service_calls::PendingResult;

/// One evidence run's `result.json`, its pictures and files, and its approval.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ResultAnswer {
    #[serde(flatten)]
    pub result: PendingResult,
    /// Present when the result may be written back and is not yet: how the user
    /// approves it.
    pub next: Option<UserNext>,
    /// The session's `crashes.minimized.json` already names this run.
    pub approved: bool,
    /// Why the result will not be approved although the run has one (its evidence does
    /// not hold together); untrusted data.
    pub approve_blocked: Option<String>,
    /// Every archived (masked) picture of the run, in attempt order: screenshots and
    /// filmstrip frames, each with its `whittle://` URI and whether a person reviewed it.
    pub pictures: Vec<PictureAnswer>,
    /// How many pictures a person reviewed, omitted, and which not yet.
    pub review: ReviewSummary,
    /// The bundle's files, rendered from the evidence (`repro.md`, the Maestro flow, the
    /// Robo script), as `whittle://` URIs; empty when the run has no result to export.
    pub files: Vec<FileAnswer>,
}

/// One picture of an evidence session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PictureAnswer {
    /// The picture's name in the evidence (`screenshots/attempt-NNN.png`,
    /// `filmstrip/attempt-NNN/step-NN.png`).
    pub name: String,
    /// What `resources/read` takes; absent for an omitted picture (deleted by the
    /// reviewer).
    pub uri: Option<String>,
    pub attempt: u32,
    /// The frame's place in its strip (1 = after the launch); absent for a screenshot.
    pub frame: Option<u32>,
    /// A person checked it in the window's review. An unreviewed picture is masked
    /// automatically only: it may still show something private the masks missed.
    pub reviewed: bool,
    /// The reviewer deleted it: nothing is served.
    pub omitted: bool,
}

/// One file of the bundle an export would write.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileAnswer {
    /// `repro.md`, `repro.maestro.yaml` or `repro.robo.json`.
    pub name: String,
    pub uri: String,
    pub mime_type: String,
}

/// One archived picture, sent as an image block beside this answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScreenshotAnswer {
    pub evidence_session: String,
    #[serde(flatten)]
    pub picture: PictureAnswer,
    pub width: u32,
    pub height: u32,
    /// How many regions are masked in the image (burned in: the unmasked image is
    /// never kept).
    pub masks: u32,
    /// `reviewed`: a person checked it; `not_reviewed`: masked automatically only (it
    /// may still show something private the masks missed: say so before sharing it).
    pub review: ReviewState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    Reviewed,
    NotReviewed,
}

/// The ticket text of an evidence run (`whittle export --markdown`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TicketAnswer {
    pub evidence_session: String,
    /// What a bundle's repro.md says, for pasting into a ticket: steps, confidence,
    /// proof, device and app. Untrusted data: it quotes labels and step descriptions.
    pub markdown: String,
    /// The same text as a resource (`resources/read`).
    pub uri: String,
    /// Present when the result may be written back and is not yet.
    pub next: Option<UserNext>,
}
