//! The past minimize runs of a session, from the evidence on disk: each evidence
//! session names the session it minimized (`extra.original_session`) and holds the
//! run's `result.json`. A run is "approved" when the session's sidecar
//! (`crashes.minimized.json`) names that evidence session for its crash. Nothing here
//! trusts the files beyond showing them: a badge is a summary, never an action. The
//! app's session view and `whittle mcp`'s `past_runs` tool both list them from here.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::Path;

use serde::Serialize;
use whittle_core::model::{Confidence, Crash, Sidecar, SIDECAR_FILE};
use whittle_core::session::{parse_meta, resolve_session_dir, META_FILE};
use whittle_core::workspace::{list_sessions, SessionSummary};

use super::{can_resume, read_journal, run_state, JournalContents, RunState};
use crate::result::{read_result, ResultPurpose, RunEnd};

/// A sidecar larger than this is not read for badges (it is never that large).
const MAX_SIDECAR_BYTES: u64 = 4 * 1024 * 1024;

/// How a past run ended, as its badge says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PastRunOutcome {
    /// Proven minimal with high confidence (`RunEnd::Minimized`).
    Minimized,
    /// The shortest reproducing path so far, minimality not proven.
    Unproven,
    NotReproduced,
    Static,
    CaptureFailed,
    RuntimeFailed,
    Cancelled,
    /// The run died without finishing (its meta still says running, nobody holds its
    /// lock), or left no result.
    Interrupted,
    /// A live process holds the run: it is going on (in this window or elsewhere).
    Running,
    /// The tester ended an interrupted run without resuming it.
    Discarded,
    /// Not a minimize run: *Record once* (`import --record`), one replay of the whole
    /// flow that recorded the crashes it caused. It has no path to shorten or rate.
    Recorded,
}

impl From<&RunEnd> for PastRunOutcome {
    fn from(end: &RunEnd) -> Self {
        match end {
            RunEnd::Minimized => PastRunOutcome::Minimized,
            RunEnd::Unproven => PastRunOutcome::Unproven,
            RunEnd::NotReproduced => PastRunOutcome::NotReproduced,
            RunEnd::Static => PastRunOutcome::Static,
            RunEnd::CaptureFailed { .. } => PastRunOutcome::CaptureFailed,
            RunEnd::RuntimeFailed { .. } => PastRunOutcome::RuntimeFailed,
            RunEnd::Cancelled => PastRunOutcome::Cancelled,
        }
    }
}

/// One past run's badge: "12 → 4 · high · approved".
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PastRun {
    pub evidence_session: String,
    pub created_at: String,
    pub outcome: PastRunOutcome,
    pub original_steps: u32,
    /// The shortest reproducing path's length, when the baseline reproduced.
    pub minimal_steps: Option<u32>,
    pub confidence: Option<Confidence>,
    /// Fixed point and final confirmation: "minimal", not just "shortest so far".
    pub converged: bool,
    pub attempts: u32,
    /// The session's sidecar names this run's evidence for its crash.
    pub approved: bool,
    /// It can go on from its journal (*Resume*) or be ended for good (*Discard*).
    pub resumable: bool,
}

/// Past runs per crash id of `session_id`, newest first. Unreadable evidence is left
/// out (it is not a run a tester can use); an interrupted run is listed as such.
pub fn past_runs(
    workspace: &Path,
    session_id: &str,
    crashes: &[Crash],
) -> HashMap<String, Vec<PastRun>> {
    let mut by_crash: HashMap<String, Vec<PastRun>> = HashMap::new();
    let Ok(all) = list_sessions(workspace) else {
        return by_crash;
    };
    let approved = approved_runs(workspace, session_id);
    for summary in all
        .iter()
        .filter(|s| s.evidence_of.as_deref() == Some(session_id))
    {
        let Ok(dir) = resolve_session_dir(workspace, &summary.session_id) else {
            continue;
        };
        let Some((crash_id, run)) = past_run(&dir, &summary.session_id, &summary.created_at) else {
            continue;
        };
        let Some(crash) = crashes.iter().find(|c| c.crash_id == crash_id) else {
            continue;
        };
        let run = PastRun {
            approved: approved.get(&crash_id) == Some(&run.evidence_session),
            original_steps: if run.original_steps == 0 {
                count(crash.repro_path.len())
            } else {
                run.original_steps
            },
            ..run
        };
        by_crash.entry(crash_id).or_default().push(run);
    }
    for runs in by_crash.values_mut() {
        runs.sort_by(newest_first);
    }
    by_crash
}

/// The order every front end lists runs in: newest first (two started in the same
/// second by their evidence ids, which end in a counter).
pub fn newest_first(a: &PastRun, b: &PastRun) -> std::cmp::Ordering {
    b.created_at
        .cmp(&a.created_at)
        .then_with(|| b.evidence_session.cmp(&a.evidence_session))
}

/// The run of a listed session that is a minimize run's evidence, as its session's past
/// runs show it (its badge's outcome: `cancelled`, `interrupted`, `discarded`, …), so
/// `whittle sessions` names a run's end as the window does; `None` for any other
/// session. (`approved` is left false: the session list does not read sidecars.)
pub fn listed_run(workspace: &Path, session: &SessionSummary) -> Option<PastRun> {
    session.evidence_of.as_ref()?;
    let dir = resolve_session_dir(workspace, &session.session_id).ok()?;
    past_run(&dir, &session.session_id, &session.created_at).map(|(_, run)| run)
}

fn past_run(dir: &Path, evidence_session: &str, created_at: &str) -> Option<(String, PastRun)> {
    let base = PastRun {
        evidence_session: evidence_session.to_owned(),
        created_at: created_at.to_owned(),
        outcome: PastRunOutcome::Interrupted,
        original_steps: 0,
        minimal_steps: None,
        confidence: None,
        converged: false,
        attempts: 0,
        approved: false,
        resumable: can_resume(dir),
    };
    let meta = File::open(dir.join(META_FILE))
        .ok()
        .and_then(|file| parse_meta(file).ok());
    let state = meta
        .as_ref()
        .map_or(RunState::Ended, |m| run_state(dir, m.status));
    let journal = read_journal(dir).ok();
    let discarded = journal.as_ref().is_some_and(|j| j.discarded.is_some());
    // A run that has not ended (killed, or still going) counts what its journal holds:
    // its result, if any, is an earlier end's, from before a resume.
    let journaled = journal.as_ref().map_or(0, journaled_attempts);
    let ended = state == RunState::Ended;
    // A run that died says so whatever it left behind; one going on is not a past run yet.
    let overriding = match state {
        RunState::Running => Some(PastRunOutcome::Running),
        RunState::Interrupted => Some(PastRunOutcome::Interrupted),
        RunState::Ended if discarded => Some(PastRunOutcome::Discarded),
        RunState::Ended => None,
    };
    match read_result(dir) {
        Ok(result) if result.purpose == ResultPurpose::Record => {
            let run = PastRun {
                outcome: overriding.unwrap_or(PastRunOutcome::Recorded),
                original_steps: count(result.original_path.len()),
                attempts: result.attempts,
                ..base
            };
            Some((result.crash_id, run))
        }
        Ok(result) => {
            let outcome = overriding.unwrap_or_else(|| PastRunOutcome::from(&result.end));
            let run = PastRun {
                outcome,
                original_steps: count(result.original_path.len()),
                minimal_steps: (!result.minimal_path.is_empty())
                    .then(|| count(result.minimal_path.len())),
                confidence: result.rating.confidence,
                converged: result.converged,
                attempts: if ended { result.attempts } else { journaled },
                ..base
            };
            Some((result.crash_id, run))
        }
        Err(_) => {
            let crash_id = meta?.extra.get("crash_id")?.as_str()?.to_owned();
            let outcome = overriding.unwrap_or(PastRunOutcome::Interrupted);
            let run = PastRun {
                outcome,
                attempts: journaled,
                ..base
            };
            Some((crash_id, run))
        }
    }
}

/// crash id → the evidence session its approved entry names.
pub fn approved_runs(workspace: &Path, session_id: &str) -> HashMap<String, String> {
    let read = || -> Option<Sidecar> {
        let dir = resolve_session_dir(workspace, session_id).ok()?;
        let file = File::open(dir.join(SIDECAR_FILE)).ok()?;
        let mut text = String::new();
        file.take(MAX_SIDECAR_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        serde_json::from_str(&text).ok()
    };
    read()
        .map(|sidecar| {
            sidecar
                .crashes
                .into_iter()
                .map(|(crash, entry)| (crash, entry.evidence_session))
                .collect()
        })
        .unwrap_or_default()
}

/// The attempts a journal recorded with a verdict, each attempt number once (one re-run
/// by a resume is the same attempt): what a resume would not replay again.
fn journaled_attempts(journal: &JournalContents) -> u32 {
    let numbers: HashSet<u32> = journal
        .attempts
        .iter()
        .filter(|a| a.outcome.verdict().is_some())
        .map(|a| a.attempt)
        .collect();
    count(numbers.len())
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
