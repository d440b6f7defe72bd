//! The one module of `whittle mcp` that calls the application layer (and the core's
//! workspace readers the commands use beside it): every tool's data comes from here,
//! and `answers` only shapes it. Moving the tools onto the application API
//! (`whittle_service::api`) changes this file alone; the application layer's types the
//! tools answer with are named here for that reason too.
//!
//! Every id a caller sends is validated as a session id (a plain folder name) before a
//! path is built from it: an agent names sessions as the `sessions` tool lists them. An
//! id that names nothing is refused naming the tool that lists the ids, never with the
//! workspace's paths.

use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;
use whittle_core::plan::build_plan;
use whittle_core::session::{load_session, Session};
use whittle_core::signature::group_crashes;
pub use whittle_service::api::Config;
use whittle_service::api::{
    self, count_of, AgentExportError, AskedRun, CountField, RunJob, RunRefusal, RunSpec,
};
use whittle_service::api::{listed_run_state, past_runs as runs_of};
use whittle_service::api::{read_sidecar, FingerprintNote};
pub use whittle_service::api::{
    ListedSession, PastRun, PastRunOutcome, PendingResult, RunEvent, RunState, RunSummary,
};

use super::answers::{
    AnalyzeAnswer, CrashPlan, CrashRuns, MinimizedAnswer, PastRunsAnswer, SessionEntry,
    SessionsAnswer,
};
use super::args::{ExportArgs, MinimizeArgs};
use super::failure::ToolFailure;
use super::lookup::{resolve, valid_id, Listed};
use super::run_answers::RunAnswer;
use super::run_refusal::run_failure;
use crate::commands::export::exit_of;
use crate::exit::Exit;

mod evidence;
mod runs;
mod setup;

pub use evidence::{read_resource, result_answer, screenshot, ticket, ResourceBody};
pub use runs::{minimize_all, resume};
pub use setup::{devices, doctor, import, verify};

/// `whittle sessions`: the workspace's sessions, each with its crashes.
pub fn sessions(config: &Config) -> Result<SessionsAnswer, ToolFailure> {
    let listed =
        api::listed_sessions(&config.workspace).map_err(|e| ToolFailure::new(Exit::Refused, e))?;
    let sessions = listed
        .iter()
        .map(|l| SessionEntry::of(l, listed_run_state(&config.workspace, &l.summary)))
        .collect();
    Ok(SessionsAnswer {
        workspace: config.workspace.display().to_string(),
        sessions,
    })
}

/// `whittle analyze`: the crash groups, each crash's plan and the approved results.
pub fn analyze(config: &Config, session_id: &str) -> Result<AnalyzeAnswer, ToolFailure> {
    Ok(analysis(session_id, &load(config, session_id)?))
}

/// The analysis of a session already read (`whittle analyze --json` reads it by the
/// terminal's rules, which also take a session folder).
pub fn analysis(session_id: &str, session: &Session) -> AnalyzeAnswer {
    let crashes = session
        .crashes
        .iter()
        .map(|crash| CrashPlan::of(crash, build_plan(&session.steps, &crash.repro_path)))
        .collect();
    let (minimized, minimized_problem) = match read_sidecar(&session.dir) {
        Ok(read) => (read.map(|r| r.sidecar.crashes).unwrap_or_default(), None),
        Err(e) => (Default::default(), Some(e.to_string())),
    };
    let minimized = minimized
        .into_iter()
        .map(|(crash_id, entry)| MinimizedAnswer {
            fingerprint_comparable: FingerprintNote::of(&crash_id, &entry).is_none(),
            crash_id,
            entry,
        })
        .collect();
    AnalyzeAnswer {
        session_id: session_id.to_owned(),
        crash_groups: group_crashes(&session.crashes),
        crashes,
        minimized,
        minimized_problem,
    }
}

/// `whittle minimize` on the configured servers, without a write-back (that stays the
/// user's to approve). Refusals before the run starts are failures; once the evidence
/// session exists every ending, a cancel included, is a summary.
pub async fn minimize(
    config: &Config,
    args: MinimizeArgs,
    on_event: impl Fn(RunEvent) + Send + Sync,
    cancel: CancellationToken,
) -> Result<RunAnswer, ToolFailure> {
    let count = |field, given: Option<u32>| {
        given
            .map(|n| count_of(field, n))
            .transpose()
            .map_err(|e| ToolFailure::refused(RunRefusal::of_count(&e), e))
    };
    let asked = AskedRun {
        max_replays: count(CountField::MaxReplays, args.max_replays)?,
        devices: count(CountField::Devices, args.devices)?,
        baseline_tries: count(CountField::BaselineTries, args.baseline_tries)?,
        crash: args.crash,
        device: args.device,
        package: args.package,
        strategy: args.strategy,
        wait_device: args
            .wait_device_seconds
            .map(|s| std::time::Duration::from_secs(u64::from(s))),
    };
    let spec = match (args.session, args.reprove) {
        // Refused before any server starts, as the CLI does: the session named, each
        // count checked once.
        (Some(session), None) => {
            resolve(config, &session, Listed::Session).map_err(|e| {
                ToolFailure::refused(
                    RunRefusal::SessionNotFound {
                        detail: e.error.clone(),
                    },
                    e.error,
                )
            })?;
            RunSpec::asked(session, asked)
        }
        (None, Some(evidence)) if asked.crash.is_none() => {
            valid_id(&evidence)?;
            api::reproof_spec(
                &config.workspace,
                &evidence,
                RunSpec::asked(String::new(), asked),
            )
            .map_err(|e| ToolFailure::refused(RunRefusal::of_reproof(&e), e))?
        }
        _ => {
            let detail = "give `session` (and `crash` when needed), or `reprove` alone";
            return Err(ToolFailure::refused(
                RunRefusal::InvalidArgument {
                    detail: detail.to_owned(),
                },
                detail,
            ));
        }
    };
    let outcome = api::run(config, RunJob::New(spec), on_event, cancel.clone()).await;
    outcome
        .map(|o| runs::answer(&o, cancel.is_cancelled()))
        .map_err(|e| run_failure(config, &e))
}

/// The evidence runs of a session, per crash in the session's order.
pub fn past_runs(config: &Config, session_id: &str) -> Result<PastRunsAnswer, ToolFailure> {
    let session = load(config, session_id)?;
    let mut runs = runs_of(&config.workspace, session_id, &session.crashes);
    let crashes = session
        .crashes
        .iter()
        .map(|crash| CrashRuns {
            crash_id: crash.crash_id.clone(),
            runs: runs.remove(&crash.crash_id).unwrap_or_default(),
        })
        .collect();
    Ok(PastRunsAnswer {
        session_id: session_id.to_owned(),
        crashes,
    })
}

/// `whittle export --out`, into a folder an agent may write to only (the workspace's
/// exports folder or the config's `export.allowed_folders`): the bundle's folder.
pub fn export(config: &Config, args: &ExportArgs) -> Result<PathBuf, ToolFailure> {
    valid_id(&args.evidence_session)?;
    let out = Path::new(&args.out);
    // Refused before the evidence is looked up; the export checks again as it opens the
    // folder, and writes inside that handle only.
    api::check_export_folder(config, out).map_err(ToolFailure::folder_refused)?;
    resolve(config, &args.evidence_session, Listed::Evidence)?;
    let name = args.name.as_deref().unwrap_or(&args.evidence_session);
    api::export_to_allowed_folder(config, &args.evidence_session, out, name).map_err(|e| match e {
        AgentExportError::Refused(refusal) => ToolFailure::folder_refused(refusal),
        AgentExportError::Export(e) => ToolFailure::new(exit_of(&e), e),
    })
}

fn load(config: &Config, session_id: &str) -> Result<Session, ToolFailure> {
    let dir = resolve(config, session_id, Listed::Session)?;
    load_session(&dir).map_err(|e| {
        ToolFailure::new(
            Exit::Refused,
            format!("session {session_id:?} cannot be read: {e}"),
        )
    })
}
