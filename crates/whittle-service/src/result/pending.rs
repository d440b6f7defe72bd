use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use whittle_contract::ui::Strategy;
use whittle_core::engine::ProofRow;
use whittle_core::model::MinimizedEntry;
use whittle_core::plan::{ActionKind, ReplayAction, ReplayPlan};
use whittle_core::run_end::RunEnd;
use whittle_core::sensitive::looks_sensitive_input;

use crate::replay::TargetIdentity;
use crate::sidecar::{write_sidecar_entry, SidecarError};

/// The file in the evidence session that holds the [`PendingResult`].
pub const RESULT_FILE: &str = "result.json";

/// One step of the minimal path, replayable without the original session. An input
/// value is kept only when it does not look sensitive (sensitive steps never reach a
/// plan at all; this is a second guard).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlanEntry {
    pub index: u32,
    pub description: String,
    /// `launch`, `tap`, `long_press`, `input_text`, `press_button` or `relaunch`.
    pub action_type: ActionKind,
    pub strategy: Option<Strategy>,
    pub button: Option<String>,
    pub input_value: Option<String>,
    pub input_redacted: bool,
    /// A relaunch's: `false` brings a running app forward instead of stopping it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub stop_app: Option<bool>,
}

impl PlanEntry {
    /// The minimal path's entries, in original order, launch setup included.
    pub fn for_path(plan: &ReplayPlan, path: &[u32]) -> Vec<PlanEntry> {
        path.iter()
            .filter_map(|&i| PlanEntry::of(plan, i))
            .collect()
    }

    fn of(plan: &ReplayPlan, index: u32) -> Option<PlanEntry> {
        let description = plan
            .steps
            .iter()
            .find(|s| s.index == index)?
            .description
            .clone();
        let mut entry = PlanEntry {
            index,
            description,
            action_type: ActionKind::Launch,
            strategy: None,
            button: None,
            input_value: None,
            input_redacted: false,
            stop_app: None,
        };
        if plan.setup.contains(&index) {
            return Some(entry);
        }
        let action = &plan.step(index)?.action;
        entry.action_type = action.kind();
        match action {
            ReplayAction::PressButton { button } => {
                entry.button = Some(button.clone());
            }
            ReplayAction::Tap { strategy } | ReplayAction::LongPress { strategy } => {
                entry.strategy = Some(strategy.clone());
            }
            ReplayAction::Relaunch { stop_app } => {
                entry.stop_app = Some(*stop_app);
            }
            ReplayAction::InputText { strategy, value } => {
                entry.strategy = Some(strategy.clone());
                if looks_sensitive_input(&strategy.value, value.expose()) {
                    entry.input_redacted = true;
                } else {
                    entry.input_value = Some(value.expose().clone());
                }
            }
        }
        Some(entry)
    }
}

/// The result of a live run, as written to the evidence session's `result.json`:
/// what would be written back on approval, and the evidence behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PendingResult {
    /// Flattened: `status` (and a failure's `cause`) head the file. Results written
    /// before the end was typed are upgraded when read (`legacy.rs`).
    #[serde(flatten)]
    pub end: RunEnd,
    /// A minimize run's, or a recording's (absent: a minimize run's, as every result
    /// written before recordings left one).
    #[serde(default, skip_serializing_if = "super::ResultPurpose::is_minimize")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub purpose: super::ResultPurpose,
    pub original_session: String,
    /// Absolute folder of the original session (where the sidecar goes).
    pub original_session_dir: String,
    pub crash_id: String,
    pub evidence_session: String,
    pub original_path: Vec<u32>,
    pub minimal_path: Vec<u32>,
    pub attempts: u32,
    pub max_replays: u32,
    #[serde(flatten)]
    pub rating: super::Rating,
    pub converged: bool,
    #[serde(flatten)]
    pub search: super::SearchFlags,
    pub write_back_allowed: bool,
    /// Typed since issue #42; an older result's sentences read back as text.
    pub warnings: Vec<super::ResultWarning>,
    pub proof: Vec<ProofRow>,
    pub proof_lines: Vec<String>,
    /// Every verdict of the final path, for its rate (absent in results written before
    /// rates were reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_outcomes: Option<Vec<bool>>,
    pub target: TargetIdentity,
    pub target_fingerprint: Option<String>,
    pub target_label: String,
    pub package: String,
    pub app_version: Option<String>,
    pub device: String,
    /// The device's model as the mobile role names it, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub device_name: Option<String>,
    /// The device's Android version, when the mobile role reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub os_version: Option<String>,
    /// The target crash's stack trace, each line that looks private replaced by
    /// `[redacted]` (it is shown in the window and exported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub target_stack: Option<String>,
    /// The crashing process when it is not the app's main one (`com.acme.notes:sync`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub crash_process: Option<String>,
    pub minimal_plan: Vec<PlanEntry>,
    /// Masked screenshots, relative to the evidence session folder.
    pub screenshots: Vec<String>,
    /// When the run was resumed after an interruption, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub resumed: Option<Vec<super::ResumeMark>>,
    /// The run (its evidence session) whose minimal path this one started from and
    /// re-proved here: a run made elsewhere (`run/reproof.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub reproves: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApproveError {
    #[error("this run's result may not be written back (baseline not reproduced, cancelled, or a capture/runtime failure)")]
    NotAllowed,
    #[error(transparent)]
    Sidecar(#[from] SidecarError),
    /// Nothing was written: the sidecar holds a newer approval of the crash
    /// ([`super::is_newer`]), and replacing it was not confirmed.
    #[error("crash {} already has a newer approval (evidence session {}, approved at {}); it was kept", .0.crash_id, .0.held.evidence_session, .0.held.approved_at)]
    Newer(Box<super::NewerApproval>),
}

impl ApproveError {
    /// The stable code a front end switches on and a catalogue words.
    pub fn code(&self) -> &'static str {
        match self {
            ApproveError::NotAllowed => "not_allowed",
            ApproveError::Sidecar(_) => "sidecar_unwritable",
            ApproveError::Newer(_) => "newer_approval",
        }
    }
}

/// The entry approval writes for `pending`, stamped `approved_at`; what the app shows
/// before the user approves.
pub fn sidecar_entry(
    pending: &PendingResult,
    approved_at: String,
) -> Result<MinimizedEntry, ApproveError> {
    let Some(confidence) = pending
        .rating
        .confidence
        .filter(|_| pending.write_back_allowed && pending.end.may_write_back())
    else {
        return Err(ApproveError::NotAllowed);
    };
    Ok(MinimizedEntry {
        minimized_repro_path: pending.minimal_path.clone(),
        minimized_attempts: pending.attempts,
        minimized_confidence: confidence,
        minimized_complete: pending.rating.complete,
        target_fingerprint: pending.target_fingerprint.clone(),
        evidence_session: pending.evidence_session.clone(),
        approved_at,
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        fingerprint_version: whittle_core::signature::FINGERPRINT_VERSION,
    })
}

/// Writes the approved result into the original session's `crashes.minimized.json`.
pub fn approve(pending: &PendingResult) -> Result<PathBuf, ApproveError> {
    approve_entry(pending).map(|(path, _)| path)
}

/// [`approve`], also returning the entry exactly as written.
pub fn approve_entry(pending: &PendingResult) -> Result<(PathBuf, MinimizedEntry), ApproveError> {
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let entry = sidecar_entry(pending, now)?;
    let path = write_sidecar_entry(
        Path::new(&pending.original_session_dir),
        &pending.crash_id,
        entry.clone(),
    )?;
    Ok((path, entry))
}
