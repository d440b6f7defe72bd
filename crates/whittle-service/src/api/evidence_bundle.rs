use std::path::{Path, PathBuf};

use whittle_core::session::{parse_meta, resolve_session_dir, ResolveError, META_FILE};

use super::evidence_check::Inconsistency;
use super::evidence_seal::seal_check;
use super::shot_labels::recorded_attempts;
use crate::config::PrivacyLevel;
use crate::evidence::{
    read_result, review_checklist, shot_path, validate_shot_name, ResultFileError,
};
use crate::export::{
    export_bundle_in, ExportDir, ExportError, ExportInput, ExportShot, ExportStep,
};
use crate::result::PendingResult;

#[derive(Debug, thiserror::Error)]
pub enum EvidenceExportError {
    #[error("evidence session: {0}")]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    Result(#[from] ResultFileError),
    #[error("evidence session {0} has no live result to export (baseline not reproduced)")]
    NoResult(String),
    /// The evidence holds no `result.json`: a run that was interrupted or is still
    /// going, or a recording that caught no crash.
    #[error(
        "evidence session {0} has no result to export: its run was interrupted or is still \
         running, or it recorded no crash"
    )]
    NoResultFile(String),
    /// The run's files were changed since its journal sealed them: no ticket is made
    /// of what approval refuses.
    #[error("evidence session {evidence} is not exported: {source}")]
    Changed {
        evidence: String,
        #[source]
        source: Box<Inconsistency>,
    },
    #[error(transparent)]
    Export(#[from] ExportError),
}

impl EvidenceExportError {
    pub fn code(&self) -> &'static str {
        match self {
            EvidenceExportError::Resolve(_) => "evidence_not_found",
            EvidenceExportError::Result(_) => "result_unreadable",
            EvidenceExportError::NoResult(_) => "no_live_result",
            EvidenceExportError::NoResultFile(_) => "no_result_file",
            EvidenceExportError::Changed { .. } => "evidence_changed",
            EvidenceExportError::Export(_) => "bundle_failed",
        }
    }
}

/// Bundles an evidence session (its `result.json`, masked screenshots labelled by
/// attempt and verdict, the filmstrip, and the reviewer's checklist over all those
/// pictures) for a bug ticket, into the open folder `out` (every file made inside its
/// handle: `export/export_dir.rs`).
pub fn export_evidence(
    workspace: &Path,
    evidence_session: &str,
    out: &ExportDir,
    name: &str,
) -> Result<PathBuf, EvidenceExportError> {
    let input = export_input(workspace, evidence_session)?;
    Ok(export_bundle_in(&input, out, name)?)
}

/// The ticket text for an evidence session (`whittle export --markdown`, the app's
/// *Copy as Markdown*): what a bundle's repro.md says, for pasting.
pub fn ticket_markdown(
    workspace: &Path,
    evidence_session: &str,
) -> Result<String, EvidenceExportError> {
    Ok(crate::export::ticket_markdown(&export_input(
        workspace,
        evidence_session,
    )?))
}

/// Everything a bundle of `evidence_session` is made of.
pub fn export_input(
    workspace: &Path,
    evidence_session: &str,
) -> Result<ExportInput, EvidenceExportError> {
    let dir = resolve_session_dir(workspace, evidence_session)?;
    let result = read_result(&dir).map_err(|e| match e {
        ResultFileError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            EvidenceExportError::NoResultFile(evidence_session.into())
        }
        other => other.into(),
    })?;
    let confidence = result
        .rating
        .confidence
        .ok_or_else(|| EvidenceExportError::NoResult(evidence_session.into()))?;
    let seal =
        seal_check(workspace, &dir, &result).map_err(|source| EvidenceExportError::Changed {
            evidence: evidence_session.into(),
            source: Box::new(source),
        })?;
    let steps = result
        .minimal_plan
        .iter()
        .map(|entry| ExportStep {
            index: entry.index,
            description: entry.description.clone(),
            action: serde_json::to_value(entry).unwrap_or(serde_json::Value::Null),
        })
        .collect();
    // Labels come from the evidence's own record of each replay: which steps it replayed
    // and what it found.
    let attempts = recorded_attempts(&dir);
    // Only the attempts' screenshots the review covers (the checklist lists exactly the
    // pictures `shot_path` resolves): `result.json` is evidence, so untrusted.
    let screenshots = result
        .screenshots
        .iter()
        .filter_map(|rel| {
            let picture = validate_shot_name(rel).ok()?;
            Some((rel, shot_path(&dir, picture).ok()?))
        })
        .map(|(rel, path)| ExportShot {
            // The last step naming the file: a resumed run that ran an attempt again
            // (it had no verdict) replaced its screenshot.
            attempt: attempts
                .iter()
                .rfind(|a| a.screenshot.as_deref() == Some(rel.as_str()))
                .map(|a| a.label.clone()),
            path,
        })
        .collect();
    let review = Some(review_checklist(&dir).summary).filter(|r| r.total > 0);
    let input = ExportInput {
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        package: result.package.clone(),
        app_version: result.app_version.clone(),
        device: result.device.clone(),
        device_name: result.device_name.clone(),
        os_version: result.os_version.clone(),
        target_fingerprint: result.target_fingerprint.clone(),
        target_label: result.target_label.clone(),
        target_stack: result.target_stack.clone(),
        side_process: result.crash_process.clone(),
        attempts: result.attempts,
        confidence,
        complete: result.rating.complete,
        end: result.end.clone(),
        original_path: result.original_path.clone(),
        minimal_path: result.minimal_path.clone(),
        steps,
        proof_lines: result.proof_lines.clone(),
        rate_lines: rate_lines(&result),
        screenshots,
        masking_level: masking_level(&dir),
        review,
        filmstrip: crate::evidence::filmstrip_for_export(&dir, &result.minimal_path),
        evidence_session: dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(evidence_session)
            .to_owned(),
        seal,
    };
    Ok(input)
}

/// The rates of a result that recorded its final path's verdicts (none for older ones).
fn rate_lines(result: &PendingResult) -> Vec<String> {
    result
        .final_outcomes
        .as_deref()
        .map(|finals| whittle_text::render_rate_lines(finals, &result.proof))
        .unwrap_or_default()
}

/// The privacy level the run recorded in the evidence session's `meta.json` (`extra`),
/// or `None` when it did not (an evidence session from before levels existed).
fn masking_level(evidence_dir: &Path) -> Option<PrivacyLevel> {
    let file = std::fs::File::open(evidence_dir.join(META_FILE)).ok()?;
    let meta = parse_meta(file).ok()?;
    serde_json::from_value(meta.extra.get("masking_level")?.clone()).ok()
}
