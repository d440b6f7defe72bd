//! What a recording that caught a crash leaves as its evidence session's `result.json`,
//! so the recording is read, reopened and exported like any run's evidence: one replay
//! of the whole flow that reproduced its first crash (`c1`), the full path, rated low and
//! never written back (nothing was searched; `whittle minimize` does that).

use std::path::Path;

use whittle_contract::analyzer::Signature;
use whittle_core::engine::SearchFlags;
use whittle_core::model::{side_process, Confidence, Crash};
use whittle_core::plan::ReplayPlan;
use whittle_core::run_end::RunEnd;

use crate::export::safe_block;
use crate::replay::{DegradedIdentity, TargetIdentity};
use crate::result::{PendingResult, PlanEntry, Rating, ResultPurpose};

/// As many stack lines as a minimize run's result keeps (`run/finish.rs`).
const MAX_STACK_LINES: usize = 60;

/// The recording's facts a result is made of.
pub(super) struct Recording<'a> {
    pub session_id: &'a str,
    pub session_dir: &'a Path,
    pub evidence_session: &'a str,
    pub plan: &'a ReplayPlan,
    pub package: &'a str,
    pub app_version: Option<String>,
    pub device: &'a str,
    /// The masked screenshot of the replay, relative to the evidence folder.
    pub screenshot: Option<String>,
}

/// The result of `recording` for `crash` (the first it recorded) and its signature;
/// `None` when the analyzer gave no identity a replay could match (nothing to export).
pub(super) fn recording_result(
    recording: &Recording<'_>,
    crash: &Crash,
    signature: &Signature,
) -> Option<PendingResult> {
    let target = match signature.fingerprint.clone().filter(|_| signature.stable) {
        Some(fingerprint) => TargetIdentity::Fingerprint { fingerprint },
        None => TargetIdentity::Degraded {
            identity: DegradedIdentity::build(crash.kind, &crash.process, signature)?,
        },
    };
    let path = crash.repro_path.clone();
    Some(PendingResult {
        end: RunEnd::Unproven,
        purpose: ResultPurpose::Record,
        original_session: recording.session_id.to_owned(),
        original_session_dir: recording.session_dir.to_string_lossy().into_owned(),
        crash_id: crash.crash_id.clone(),
        evidence_session: recording.evidence_session.to_owned(),
        original_path: path.clone(),
        minimal_plan: PlanEntry::for_path(recording.plan, &path),
        minimal_path: path,
        attempts: 1,
        max_replays: 1,
        rating: Rating {
            confidence: Some(Confidence::Low),
            complete: false,
        },
        converged: false,
        search: SearchFlags::default(),
        write_back_allowed: false,
        warnings: Vec::new(),
        proof: Vec::new(),
        proof_lines: Vec::new(),
        final_outcomes: Some(vec![true]),
        target_fingerprint: target.fingerprint().map(str::to_owned),
        target,
        target_label: signature.label.clone(),
        package: recording.package.to_owned(),
        app_version: recording.app_version.clone(),
        device: recording.device.to_owned(),
        device_name: None,
        os_version: None,
        target_stack: Some(safe_block(&crash.stack, MAX_STACK_LINES))
            .filter(|s| !s.trim().is_empty()),
        crash_process: side_process(&crash.process, recording.package).map(str::to_owned),
        screenshots: recording.screenshot.iter().cloned().collect(),
        resumed: None,
        reproves: None,
    })
}
