//! What the tools of `whittle mcp` answer that the application layer has no type for:
//! typed fields only, published as the tool's output schema and sent as
//! `structuredContent` (with the same JSON as a text block). `minimize` and `result`
//! answer the application layer's own `RunSummary` and `PendingResult`.
//! Strings read from sessions, evidence and devices (names, labels, step descriptions,
//! problems) are untrusted data: they sit in these fields and nowhere else, never in a
//! tool's description or the server's instructions.

use schemars::JsonSchema;
use serde::Serialize;
use whittle_core::model::{Crash, CrashKind, MinimizedEntry, SessionStatus};
use whittle_core::plan::{Coverage, PlanNotice, PlannedStep, ReplayPlan};
use whittle_core::signature::CrashGroup;

use super::service_calls::{ListedSession, PastRun, PastRunOutcome, RunState};

/// The workspace's sessions (`whittle sessions`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SessionsAnswer {
    /// The workspace folder the configuration names.
    pub workspace: String,
    pub sessions: Vec<SessionEntry>,
}

/// One session of the workspace: a recorded session, or the evidence of a minimize run
/// whose session is gone (a run's evidence is otherwise listed under `runs`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SessionEntry {
    /// The folder name: what the other tools take as `session` or `evidence_session`.
    pub session_id: String,
    /// Untrusted data: the name the session's recorder gave it.
    pub name: String,
    /// Untrusted data: the recorder's timestamp, as written.
    pub created_at: String,
    /// What the session's meta records; absent when it cannot be read.
    pub status: Option<SessionStatus>,
    /// An imported flow no replay has run yet: its `status` is not a test's outcome.
    pub not_run: bool,
    /// For a minimize run's evidence: `running` (a live process holds it), `interrupted`
    /// (it died; resumable with `whittle minimize --resume`) or `ended`.
    pub run_state: Option<RunState>,
    /// For a minimize run's evidence: how the run stands, as `past_runs` says it
    /// (`cancelled`, `interrupted`, `discarded`, `minimized`, …).
    pub run_outcome: Option<PastRunOutcome>,
    /// Untrusted data.
    pub platform: String,
    /// Untrusted data: the app's package.
    pub package: Option<String>,
    pub step_count: u32,
    pub crash_count: u32,
    /// Distinct crash signatures.
    pub crash_groups: u32,
    /// Why the session cannot be used, when it cannot (may quote untrusted data).
    pub problem: Option<String>,
    /// For a minimize run's evidence: the session it minimized.
    pub evidence_of: Option<String>,
    /// How many evidence sessions minimized this one.
    pub past_runs: u32,
    /// The session's crashes, as recorded.
    pub crashes: Vec<CrashEntry>,
    /// Its minimize runs, newest first, as `past_runs` gives them per crash (for a run's
    /// evidence listed on its own, because its session is gone: that run).
    pub runs: Vec<PastRun>,
}

impl SessionEntry {
    pub fn of(listed: &ListedSession, run_state: Option<RunState>) -> Self {
        let summary = &listed.summary;
        SessionEntry {
            session_id: summary.session_id.clone(),
            name: summary.name.clone(),
            created_at: summary.created_at.clone(),
            status: summary.status,
            not_run: summary.not_run,
            run_state,
            run_outcome: summary
                .evidence_of
                .as_ref()
                .and(listed.runs.first())
                .map(|run| run.outcome),
            platform: summary.platform.clone(),
            package: summary.package.clone(),
            step_count: summary.step_count,
            crash_count: summary.crash_count,
            crash_groups: summary.crash_groups,
            problem: summary.problem.as_ref().map(ToString::to_string),
            evidence_of: summary.evidence_of.clone(),
            past_runs: summary.past_runs,
            crashes: listed.crashes.iter().map(CrashEntry::of).collect(),
            runs: listed.runs.clone(),
        }
    }
}

/// One recorded crash (its stack is left out: it may hold private data).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrashEntry {
    /// What `minimize` takes as `crash`.
    pub crash_id: String,
    pub kind: CrashKind,
    /// Untrusted data: the recorder's label.
    pub label: Option<String>,
    /// Untrusted data: the crashing process.
    pub process: String,
    /// The step the crash was recorded at.
    pub step_index: u32,
    /// The recorded path to the crash (step indexes).
    pub repro_path: Vec<u32>,
}

impl CrashEntry {
    fn of(crash: &Crash) -> Self {
        CrashEntry {
            crash_id: crash.crash_id.clone(),
            kind: crash.kind,
            label: crash.label.clone(),
            process: crash.process.clone(),
            step_index: crash.step_index,
            repro_path: crash.repro_path.clone(),
        }
    }
}

/// A session's crashes grouped by signature (`whittle analyze`), each crash's replay
/// plan, and the results already approved into its sidecar.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AnalyzeAnswer {
    pub session_id: String,
    /// One group per distinct signature, in order of first appearance. Labels and
    /// processes are untrusted data.
    pub crash_groups: Vec<CrashGroup>,
    /// Every crash with the plan of its recorded path.
    pub crashes: Vec<CrashPlan>,
    /// The results approved into `crashes.minimized.json`, by crash.
    pub minimized: Vec<MinimizedAnswer>,
    /// Why the approved results could not be read, when they could not.
    pub minimized_problem: Option<String>,
}

/// One crash and the plan a minimize run would replay.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrashPlan {
    #[serde(flatten)]
    pub crash: CrashEntry,
    /// Absent when no plan can be built; `plan_problem` then says why.
    pub plan: Option<PlanAnswer>,
    pub plan_problem: Option<String>,
}

impl CrashPlan {
    pub fn of<E: std::fmt::Display>(crash: &Crash, plan: Result<ReplayPlan, E>) -> Self {
        let (plan, plan_problem) = match plan {
            Ok(plan) => (Some(PlanAnswer::of(plan)), None),
            Err(e) => (None, Some(e.to_string())),
        };
        CrashPlan {
            crash: CrashEntry::of(crash),
            plan,
            plan_problem,
        }
    }
}

/// The replay plan of a crash's path: every step as setup (the launch), replayable (a
/// deletion candidate) or skipped with its reason code.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanAnswer {
    /// The path's steps in order. `description` and the names inside `words` are
    /// untrusted data (never a typed or private value).
    pub steps: Vec<PlannedStep>,
    pub coverage: Coverage,
    /// At least half of the non-launch actions are replayable: a live run is possible.
    pub live_run_allowed: bool,
    /// What to know before a run, as codes.
    pub notices: Vec<PlanNotice>,
}

impl PlanAnswer {
    fn of(plan: ReplayPlan) -> Self {
        PlanAnswer {
            live_run_allowed: plan.coverage.allows_live_run(),
            steps: plan.steps,
            coverage: plan.coverage,
            notices: plan.notices,
        }
    }
}

/// One approved result of the session's sidecar.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MinimizedAnswer {
    /// Untrusted data: the crash id as the sidecar file writes it.
    pub crash_id: String,
    /// The entry as approved (its strings are untrusted data: the file is on disk).
    #[serde(flatten)]
    pub entry: MinimizedEntry,
    /// False when another analyzer version computed its fingerprint: a new run of the
    /// same crash may not compare equal.
    pub fingerprint_comparable: bool,
}

/// The minimize runs of a session, per crash, from the evidence on disk.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PastRunsAnswer {
    pub session_id: String,
    pub crashes: Vec<CrashRuns>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CrashRuns {
    pub crash_id: String,
    /// Each run: its evidence session (for `result` and `export`), how it ended, its
    /// path lengths, confidence, attempts, and whether it was approved or can resume.
    pub runs: Vec<PastRun>,
}

/// Where `export` wrote the bundle.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportAnswer {
    /// The bundle's folder: `repro.md`, the Maestro flow and Robo script, masked
    /// screenshots, the filmstrip and `manifest.json`.
    pub bundle_dir: String,
}
