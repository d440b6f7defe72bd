//! `import --record` (and the app's *Run once and record*): one replay of the whole
//! imported flow through the minimize run's replay-to-evidence pipeline (`run/attempt.rs`:
//! the same replay, masked screenshot and evidence step), inside an evidence session with
//! a running log capture; then the crashes it caused go into the session's
//! `crashes.jsonl` (trigger step, full path up to it), so the session can be minimized at
//! once. No crash: the session is marked passed.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use whittle_contract::analyzer::Signature;
use whittle_contract::log::RecentCrashes;
use whittle_core::engine::{FailureCause, Phase};
use whittle_core::model::{AppVersion, Crash, CrashKind, SessionStatus};
use whittle_core::parallel::Job;
use whittle_core::plan::build_plan;
use whittle_core::session::{load_session, resolve_session_dir, CRASHES_FILE, META_FILE};

use super::record_end::RecordEnd;
use super::record_result::{recording_result, Recording};
use super::RecordError;
use crate::atomic::{write_atomic, FileMode};
use crate::client::Hub;
use crate::config::Config;
use crate::replay::{ReplayContext, ReplayObserver, TargetIdentity};
use crate::result::write_result;
use crate::run::{
    attempt_step, capture_problem, check_tools, choose_device, claim_device, evidence_name,
    needed_tools, stop_problem, version_text, Attempt, AttemptOutcome, EvidenceSession, RunError,
    ShotAfterCancel,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordOptions {
    /// Session id, or an absolute session folder inside the workspace.
    pub session: String,
    pub device: Option<String>,
}

/// What one recorded run found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecordOutcome {
    pub session_id: String,
    pub evidence_session: String,
    pub device: String,
    /// How the replay ended: crashed, ran to its end, or stopped before it.
    pub end: RecordEnd,
    /// `passed` only when the flow ran to its end without a crash, else `failed`.
    pub status: SessionStatus,
    pub crashes: Vec<RecordedCrash>,
    /// Where the replay stopped early (an element not found after a crash, say).
    pub stopped_at_step: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecordedCrash {
    pub crash_id: String,
    pub kind: CrashKind,
    pub label: String,
    pub step_index: u32,
    pub repro_path: Vec<u32>,
}

/// A fingerprint no analyzer produces (they are 12 lowercase hex digits): the replay
/// then compares every crash and matches none, so all of them are observed.
const NO_TARGET: &str = "record: every crash";

pub async fn record_session(
    hub: &Hub,
    config: &Config,
    opts: &RecordOptions,
    cancel: &CancellationToken,
) -> Result<RecordOutcome, RecordError> {
    let dir = resolve_session_dir(&config.workspace, &opts.session).map_err(RunError::from)?;
    let session = load_session(&dir).map_err(RunError::from)?;
    let session_id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !session.crashes.is_empty() || dir.join(CRASHES_FILE).exists() {
        return Err(RecordError::AlreadyRecorded(session_id));
    }
    let package = session
        .meta
        .package
        .clone()
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| RecordError::NoPackage(session_id.clone()))?;
    let path: Vec<u32> = session.steps.iter().map(|s| s.index).collect();
    let plan = build_plan(&session.steps, &path).map_err(RunError::from)?;
    let (device, app_version) = record_device(
        hub,
        session.meta.device_id.as_deref(),
        opts.device.as_deref(),
        &package,
    )
    .await?;
    // The device is held for the recording as for a minimize run: no other run may
    // drive it meanwhile, and its ui server must serve every step's tool.
    check_tools(hub, &device, &needed_tools(&plan.replayable))?;
    let _lease = claim_device(hub, &device, &format!("record {session_id}"), None).await?;

    let short = evidence_name(&session_id).replacen("minimize-", "record-", 1);
    let extra = json!({
        "original_session": session_id, "purpose": "record", "package": package,
        "device_id": device, "platform": "android", "masking_level": config.masking.level,
    });
    let evidence =
        EvidenceSession::start(hub, &short, extra.as_object().cloned().unwrap_or_default())
            .await
            .map_err(RunError::from)?;
    let capture = match evidence.start_capture(hub, &device).await {
        Some(problem) => Some(problem),
        None => capture_problem(hub, &evidence.id).await,
    };
    if let Some(problem) = capture {
        let _ = stop_problem(hub, &evidence.id).await;
        let _ = hub
            .report()
            .finalize(&evidence.id, SessionStatus::Failed, &problem)
            .await;
        return Err(RecordError::Capture(problem));
    }

    let ctx = ReplayContext {
        timing: config.timing_for(&device),
        device: device.clone(),
        package: package.clone(),
        launch_anchor: plan.launch_anchor.clone(),
        target: TargetIdentity::Fingerprint {
            fingerprint: NO_TARGET.into(),
        },
    };
    // The whole flow, as a minimize run's baseline: the first job of a round of one.
    let job = Job {
        attempt: 1,
        phase: Phase::Baseline,
        candidate: plan.candidate_ids(),
        speculative: false,
        occurrence: 0,
    };
    let attempt = Attempt {
        hub,
        plan: &plan,
        ctx: &ctx,
        job: &job,
        evidence_dir: &evidence.dir,
        masking: &config.masking,
        cancel,
        unneeded: None,
    };
    let poll = CrashPoll {
        hub,
        device: &device,
        package: &package,
        seen: BTreeMap::new(),
        last_step: plan.setup.first().copied().unwrap_or(1),
    };
    let span = tracing::info_span!("record", session = %session_id, device = %device);
    let (replayed, poll) = attempt.replay(poll, None).instrument(span).await;
    // Every crash of the app the log holds now (nothing clears it until the next replay).
    let drained = match &replayed.outcome {
        AttemptOutcome::Replayed { .. } => hub
            .log()
            .get_recent_crashes(&device, Some(&package))
            .await
            .map_err(|e| {
                RecordError::Replay(FailureCause::Drain {
                    detail: e.to_string(),
                })
            }),
        // A recording is never a guess: nothing stops it as unneeded.
        AttemptOutcome::Cancelled | AttemptOutcome::Unneeded => Err(RecordError::Cancelled),
        AttemptOutcome::Failed { cause } => Err(RecordError::Replay(cause.clone())),
    };
    let entry = attempt
        .journal_attempt(replayed, (1, 1), ShotAfterCancel::Taken)
        .await;
    // The step's notes are the attempt's journal record, as a minimize run writes them,
    // so every reader of evidence reads this one too.
    let found = drained.as_ref().is_ok_and(|d| d.count > 0);
    let step = attempt_step(
        &evidence.id,
        format!("record {session_id}"),
        found,
        &entry,
        None,
    );
    let _ = hub.report().record_step(step).await;
    let capture_end = stop_problem(hub, &evidence.id).await;
    let drained = match (drained, capture_end) {
        (Ok(d), None) => d,
        (Err(e), _) => return Err(failed(hub, &evidence.id, e).await),
        (Ok(_), Some(problem)) => {
            return Err(failed(hub, &evidence.id, RecordError::Capture(problem)).await)
        }
    };
    let verdict = entry.outcome.verdict();
    let Caught {
        crashes,
        stacks,
        first_signature,
    } = poll.attribute(&drained, &path).await;
    // The recording's evidence exports like a run's: its first crash, on the full path.
    if let (Some(first), Some((ts, process, stack)), Some(signature)) =
        (crashes.first(), stacks.first(), first_signature.as_ref())
    {
        let crash = Crash {
            crash_id: first.crash_id.clone(),
            ts: Some(ts.clone()),
            kind: first.kind,
            process: process.clone(),
            label: Some(first.label.clone()),
            stack: stack.clone(),
            step_index: first.step_index,
            repro_path: first.repro_path.clone(),
        };
        let recording = Recording {
            session_id: &session_id,
            session_dir: &dir,
            evidence_session: &evidence.id,
            plan: &plan,
            package: &package,
            app_version: version_text(app_version.name.as_deref(), app_version.code),
            device: &device,
            screenshot: entry.screenshot_src.clone(),
        };
        if let Some(result) = recording_result(&recording, &crash, signature) {
            if let Err(e) = write_result(&evidence.dir, &result) {
                return Err(failed(hub, &evidence.id, RecordError::Result(e)).await);
            }
        }
    }
    let end = RecordEnd::of(crashes.len(), verdict);
    let status = end.session_status();
    let summary = match end {
        RecordEnd::RanToEnd => format!("recorded {session_id}: the flow ran without a crash"),
        RecordEnd::Stopped { step, reason } => format!(
            "recorded {session_id}: the replay stopped{} ({}) without a crash",
            step.map(|s| format!(" at step {s}")).unwrap_or_default(),
            reason.as_str()
        ),
        RecordEnd::Crashed => format!("recorded {session_id}: {} crash(es)", crashes.len()),
    };
    let _ = hub.report().finalize(&evidence.id, status, &summary).await;
    write_crashes(&dir, &crashes, &stacks)?;
    update_meta(&dir, end, &device, app_version)?;
    Ok(RecordOutcome {
        session_id,
        evidence_session: evidence.id,
        device,
        end,
        status,
        crashes,
        stopped_at_step: verdict.and_then(|v| v.step),
    })
}

/// The device a recording replays on, chosen as a minimize run chooses it
/// ([`choose_device`]), and the app's version there; refused when the app is not
/// installed on it as a user app. `import --record` asks this before it writes the
/// session, so a refusal leaves nothing behind.
pub async fn record_device(
    hub: &Hub,
    meta_device: Option<&str>,
    chosen: Option<&str>,
    package: &str,
) -> Result<(String, AppVersion), RecordError> {
    let device = choose_device(hub, meta_device, chosen, Some(package)).await?;
    let apps = hub
        .mobile()
        .list_apps(&device)
        .await
        .map_err(RunError::from)?;
    let app = apps
        .apps
        .iter()
        .find(|a| a.package == package && !a.system)
        .ok_or_else(|| RecordError::NotInstalled {
            package: package.to_owned(),
            device: device.clone(),
        })?;
    let version = AppVersion {
        name: app.version_name.clone(),
        code: app.version_code,
    };
    Ok((device, version))
}

/// Ends the evidence session as failed with `error`'s words, and returns it.
async fn failed(hub: &Hub, evidence_session: &str, error: RecordError) -> RecordError {
    let _ = hub
        .report()
        .finalize(evidence_session, SessionStatus::Failed, &error.to_string())
        .await;
    error
}

/// Which step each crash followed: the log is read (never cleared) after every step.
struct CrashPoll<'a> {
    hub: &'a Hub,
    device: &'a str,
    package: &'a str,
    seen: BTreeMap<String, u32>,
    last_step: u32,
}

impl CrashPoll<'_> {
    async fn poll(&mut self) {
        // A failed read only loses the attribution: the crash is still read at the end.
        if let Ok(recent) = self
            .hub
            .log()
            .get_recent_crashes(self.device, Some(self.package))
            .await
        {
            for crash in recent.crashes {
                self.seen.entry(crash.record_id).or_insert(self.last_step);
            }
        }
    }
}

impl ReplayObserver for CrashPoll<'_> {
    fn after_launch(&mut self) -> impl std::future::Future<Output = ()> + Send {
        self.poll()
    }

    fn after_action(&mut self, step: u32) -> impl std::future::Future<Output = ()> + Send {
        self.last_step = step;
        self.poll()
    }
}

/// The crashes a recording caught, in the log's order.
struct Caught {
    crashes: Vec<RecordedCrash>,
    /// Each crash's `(ts, process, stack)`, for `crashes.jsonl`.
    stacks: Vec<(String, String, String)>,
    /// The first crash's signature, when the analyzer gave one.
    first_signature: Option<Signature>,
}

impl CrashPoll<'_> {
    /// Each of the `drained` crashes as recorded: the step it followed (the last step
    /// reached when no poll saw it), the part of `path` up to that step, and its label.
    async fn attribute(self, drained: &RecentCrashes, path: &[u32]) -> Caught {
        let mut caught = Caught {
            crashes: Vec::new(),
            stacks: Vec::new(),
            first_signature: None,
        };
        for crash in &drained.crashes {
            let step = self
                .seen
                .get(&crash.record_id)
                .copied()
                .unwrap_or(self.last_step);
            let signature = self
                .hub
                .analyzer()
                .compute_signature(&crash.stack, Some(crash.kind))
                .await
                .ok();
            let label = signature
                .as_ref()
                .map(|s| s.label.clone())
                .unwrap_or_default();
            if caught.crashes.is_empty() {
                caught.first_signature = signature;
            }
            caught.crashes.push(RecordedCrash {
                crash_id: format!("c{}", caught.crashes.len() + 1),
                kind: crash.kind,
                label,
                step_index: step,
                repro_path: path.iter().copied().filter(|&i| i <= step).collect(),
            });
            caught
                .stacks
                .push((crash.ts.clone(), crash.process.clone(), crash.stack.clone()));
        }
        caught
    }
}

/// `crashes.jsonl`, created once: it must not exist (Whittle never rewrites it).
fn write_crashes(
    dir: &Path,
    crashes: &[RecordedCrash],
    stacks: &[(String, String, String)],
) -> Result<(), RecordError> {
    let path = dir.join(CRASHES_FILE);
    if crashes.is_empty() {
        return Ok(());
    }
    if path.exists() {
        return Err(RecordError::AlreadyRecorded(
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ));
    }
    let mut text = String::new();
    for (crash, (ts, process, stack)) in crashes.iter().zip(stacks) {
        let line = json!({
            "crash_id": crash.crash_id, "ts": ts, "kind": crash.kind, "process": process,
            "label": crash.label, "stack": stack, "step_index": crash.step_index,
            "repro_path": crash.repro_path,
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    write_atomic(&path, text.as_bytes(), FileMode::Shared).map_err(|source| RecordError::Write {
        path: path.clone(),
        source,
    })
}

/// The run's verdict, device and app version into `meta.json` (atomically).
fn update_meta(
    dir: &Path,
    end: RecordEnd,
    device: &str,
    version: AppVersion,
) -> Result<(), RecordError> {
    let path = dir.join(META_FILE);
    let err = |source| RecordError::Write {
        path: path.clone(),
        source,
    };
    let text = std::fs::read(&path).map_err(err)?;
    let mut meta = whittle_core::session::parse_meta(text.as_slice())
        .map_err(|e| err(std::io::Error::other(e.to_string())))?;
    meta.status = end.session_status();
    meta.device_id = Some(device.to_owned());
    if version.name.is_some() || version.code.is_some() {
        meta.app_version = Some(version);
    }
    if let Some(import) = meta.extra.get_mut("import").and_then(|v| v.as_object_mut()) {
        import.insert("recorded".into(), json!(true));
        // A stopped replay says where and why, so no reader takes `failed` for a crash.
        if let RecordEnd::Stopped { step, reason } = end {
            import.insert("stopped".into(), json!({"step": step, "reason": reason}));
        }
    }
    let bytes = serde_json::to_vec_pretty(&meta).map_err(|e| err(std::io::Error::other(e)))?;
    write_atomic(&path, &bytes, FileMode::Shared).map_err(err)
}
