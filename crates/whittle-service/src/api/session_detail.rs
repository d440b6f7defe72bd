//! What a session browser shows of one session: identity, crashes, and per crash the
//! replay plan's step path, the replay estimate and the past runs. Built from
//! `whittle-core`; the shapes here are the front ends' own so the UI does not depend on
//! the core's serde details.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;
use whittle_core::model::{AppVersion, Crash, CrashKind, SessionStatus};
use whittle_core::plan::{
    build_plan, Disposition, PlanNotice, PlannedStep, ReplayPlan, SkipReason, StepWords,
};
use whittle_core::session::load_session;
use whittle_core::workspace::{list_sessions, SessionSummary};

use super::estimate::{estimate, ReplayEstimate};
use super::session_error::{session_dir, SessionReadError};
use crate::run::{past_runs, PastRun};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SessionDetail {
    pub session_id: String,
    pub name: String,
    pub created_at: String,
    pub status: SessionStatus,
    /// An imported flow that has not been run yet: `status` is not a test's outcome.
    pub not_run: bool,
    pub platform: String,
    pub package: Option<String>,
    pub device_id: Option<String>,
    pub app_version: Option<AppVersion>,
    pub step_count: u32,
    pub crashes: Vec<CrashDetail>,
    /// The whole flow as a replay would run it, for a session without a crash to plan
    /// (an imported flow not run yet shows its steps before it runs); absent when the
    /// session has crashes (each carries its own plan) or the plan cannot be built.
    pub flow: Option<PlanView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CrashDetail {
    pub crash_id: String,
    pub kind: CrashKind,
    pub label: Option<String>,
    pub process: String,
    pub step_index: u32,
    pub repro_path: Vec<u32>,
    /// Absent when the plan cannot be built; `plan_problem` then says why.
    pub plan: Option<PlanView>,
    pub plan_problem: Option<String>,
    /// Earlier minimize runs of this crash, read from their evidence, newest first.
    pub past_runs: Vec<PastRun>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PlanView {
    pub steps: Vec<StepView>,
    pub coverage: CoverageView,
    /// Phase 1 (docs/design.md §13): at least half of the non-launch actions must be replayable.
    pub live_run_allowed: bool,
    /// What a tester should know before a run, as data the window words.
    pub notices: Vec<PlanNotice>,
    /// Replays each search strategy is likely to need for this path.
    pub estimate: ReplayEstimate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CoverageView {
    pub non_launch: u32,
    pub replayable: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StepView {
    pub index: u32,
    /// The action in plain words (English), never with a typed or sensitive value.
    pub description: String,
    /// The same as data, which the window words in its language.
    pub words: StepWords,
    pub role: StepRole,
    /// Why the step is skipped, when it is.
    pub skip_reason: Option<SkipReason>,
    /// The step the crash was recorded at.
    pub is_trigger: bool,
    /// The recorder's screenshot of this step, relative to the session folder.
    pub screenshot: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum StepRole {
    Setup,
    Replayable,
    Skipped,
}

/// The sessions a tester browses: evidence sessions of minimize runs are listed under
/// the session they minimized (its `past_runs`), not as sessions of their own — unless
/// that session is gone, so no evidence becomes invisible.
pub fn sessions(workspace: &Path) -> Result<Vec<SessionSummary>, SessionReadError> {
    let all = list_sessions(workspace).map_err(|source| SessionReadError::Workspace {
        workspace: workspace.to_path_buf(),
        source,
    })?;
    let ids: std::collections::HashSet<String> = all.iter().map(|s| s.session_id.clone()).collect();
    Ok(all
        .into_iter()
        .filter(|s| s.evidence_of.as_ref().is_none_or(|o| !ids.contains(o)))
        .collect())
}

pub fn session_detail(
    workspace: &Path,
    session_id: &str,
) -> Result<SessionDetail, SessionReadError> {
    let dir = session_dir(workspace, session_id)?;
    let session = load_session(&dir).map_err(|source| SessionReadError::Unreadable {
        id: session_id.to_owned(),
        source,
    })?;
    let shots: HashMap<u32, String> = session
        .steps
        .iter()
        .filter_map(|s| Some((s.index, s.screenshot_src.clone()?)))
        .collect();
    let mut runs = past_runs(workspace, session_id, &session.crashes);
    let crashes = session
        .crashes
        .iter()
        .map(|crash| {
            let mut detail =
                crash_detail(crash, build_plan(&session.steps, &crash.repro_path), &shots);
            detail.past_runs = runs.remove(&crash.crash_id).unwrap_or_default();
            detail
        })
        .collect();
    // No crash names a path: the flow's own steps, all of them, are what a replay runs.
    let flow = session.crashes.is_empty().then(|| {
        let all: Vec<u32> = session.steps.iter().map(|s| s.index).collect();
        build_plan(&session.steps, &all)
            .ok()
            .map(|plan| plan_view(&plan, None, &shots))
    });
    let meta = session.meta;
    let not_run = meta.not_run();
    Ok(SessionDetail {
        // The folder name is the identity; meta's own id is untrusted.
        session_id: session_id.to_owned(),
        name: meta.name,
        created_at: meta.created_at,
        status: meta.status,
        not_run,
        platform: meta.platform,
        package: meta.package,
        device_id: meta.device_id,
        app_version: meta.app_version,
        step_count: u32::try_from(session.steps.len()).unwrap_or(u32::MAX),
        crashes,
        flow: flow.flatten(),
    })
}

fn crash_detail<E: std::fmt::Display>(
    crash: &Crash,
    plan: Result<ReplayPlan, E>,
    shots: &HashMap<u32, String>,
) -> CrashDetail {
    let (plan, plan_problem) = match plan {
        Ok(plan) => (Some(plan_view(&plan, Some(crash.step_index), shots)), None),
        Err(e) => (None, Some(e.to_string())),
    };
    CrashDetail {
        crash_id: crash.crash_id.clone(),
        kind: crash.kind,
        label: crash.label.clone(),
        process: crash.process.clone(),
        step_index: crash.step_index,
        repro_path: crash.repro_path.clone(),
        plan,
        plan_problem,
        past_runs: Vec::new(),
    }
}

/// The plan as the window shows it; `trigger` is the step the crash was recorded at, if
/// there is a crash.
fn plan_view(plan: &ReplayPlan, trigger: Option<u32>, shots: &HashMap<u32, String>) -> PlanView {
    PlanView {
        steps: plan
            .steps
            .iter()
            .map(|s| step_view(s, trigger, shots.get(&s.index).cloned()))
            .collect(),
        coverage: CoverageView {
            non_launch: plan.coverage.non_launch,
            replayable: plan.coverage.replayable,
        },
        live_run_allowed: plan.coverage.allows_live_run(),
        notices: plan.notices.clone(),
        estimate: estimate(plan.coverage.replayable),
    }
}

fn step_view(step: &PlannedStep, trigger: Option<u32>, screenshot: Option<String>) -> StepView {
    let (role, skip_reason) = match &step.disposition {
        Disposition::Setup => (StepRole::Setup, None),
        Disposition::Replayable => (StepRole::Replayable, None),
        Disposition::Skipped { reason } => (StepRole::Skipped, Some(reason.clone())),
    };
    StepView {
        index: step.index,
        description: step.description.clone(),
        words: step.words.clone(),
        role,
        skip_reason,
        is_trigger: trigger == Some(step.index),
        screenshot,
    }
}
