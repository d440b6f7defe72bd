//! The runs a long-lived front end (the window, `whittle mcp`) holds: at most one live
//! at a time (it owns the device), cancelled by its id, and the results of finished
//! ones, which approval and export read from memory — never from a file an evidence
//! session could have had rewritten. `Task` is the front end's handle on the live run's
//! task (quitting waits on it).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tokio_util::sync::CancellationToken;

use whittle_text::Locale;

use super::approval::Approvable;
use super::own_runs::OwnRuns;
use super::result_view::{result_view, ResultFacts, RunResultView};
use crate::run::{RunEvent, RunOutcome};

/// Another run holds the one run slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a minimize run is already in progress; cancel it or wait for it to end")]
pub struct RunInProgress;

impl RunInProgress {
    pub fn code(&self) -> &'static str {
        "run_in_progress"
    }
}

pub struct ActiveRun<Task> {
    pub id: u32,
    pub cancel: CancellationToken,
    pub done: Option<Task>,
}

#[derive(Debug, Clone)]
pub struct FinishedRun {
    pub workspace: PathBuf,
    pub evidence_dir: PathBuf,
    /// What approval writes, stamped when the result was first shown.
    pub approvable: Option<Approvable>,
}

pub struct Runs<Task> {
    inner: Mutex<Inner<Task>>,
    /// The runs this front end started and has not seen end (kept across restarts).
    own: OwnRuns,
}

struct Inner<Task> {
    next_id: u32,
    active: Option<ActiveRun<Task>>,
    finished: HashMap<String, FinishedRun>,
    revealable: HashSet<PathBuf>,
}

impl<Task> Default for Runs<Task> {
    /// Runs that remember no own runs (tests).
    fn default() -> Runs<Task> {
        Runs::with_own_runs(OwnRuns::default())
    }
}

impl<Task> Runs<Task> {
    /// Runs whose own runs are remembered in `own`.
    pub fn with_own_runs(own: OwnRuns) -> Runs<Task> {
        Runs {
            inner: Mutex::new(Inner {
                next_id: 0,
                active: None,
                finished: HashMap::new(),
                revealable: HashSet::new(),
            }),
            own,
        }
    }

    pub fn own(&self) -> &OwnRuns {
        &self.own
    }

    fn lock(&self) -> MutexGuard<'_, Inner<Task>> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves the single run slot.
    pub fn begin(&self) -> Result<(u32, CancellationToken), RunInProgress> {
        let mut inner = self.lock();
        if inner.active.is_some() {
            return Err(RunInProgress);
        }
        inner.next_id += 1;
        let id = inner.next_id;
        let cancel = CancellationToken::new();
        inner.active = Some(ActiveRun {
            id,
            cancel: cancel.clone(),
            done: None,
        });
        Ok((id, cancel))
    }

    /// Keeps the run's task so quitting can wait for it; ignored if it already ended.
    pub fn attach(&self, id: u32, done: Task) {
        if let Some(active) = self.lock().active.as_mut().filter(|a| a.id == id) {
            active.done = Some(done);
        }
    }

    /// Frees the slot (what the run produced was kept by [`Runs::finish`]).
    pub fn end(&self, id: u32) {
        let mut inner = self.lock();
        if inner.active.as_ref().is_some_and(|a| a.id == id) {
            inner.active = None;
        }
    }

    /// Asks run `id` to stop; false when it is not the live run.
    pub fn cancel(&self, id: u32) -> bool {
        match self.lock().active.as_ref().filter(|a| a.id == id) {
            Some(active) => {
                active.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// For quitting: cancels the live run and hands over its task to wait on.
    pub fn cancel_for_exit(&self) -> Option<Task> {
        let mut inner = self.lock();
        let active = inner.active.as_mut()?;
        active.cancel.cancel();
        active.done.take()
    }

    pub fn is_running(&self) -> bool {
        self.lock().active.is_some()
    }

    /// What follows each event of a run this front end holds — a single run or an item
    /// of its queue, the same for both: once the run's evidence session exists it is
    /// noted among the own runs, so a run cut off with the front end is offered for
    /// resuming at its next start.
    pub fn note_event(&self, workspace: &Path, event: &RunEvent) {
        if let RunEvent::Started {
            evidence_session, ..
        } = event
        {
            self.own.started(workspace, evidence_session);
        }
    }

    /// What follows a run that ended with an outcome, once, for every run this front end
    /// holds: the result view worded in `locale`, the run no longer among the own runs,
    /// and what Approve and Export need kept (replacing what an earlier, reopened or
    /// resumed, view of the same evidence session kept).
    pub fn finish(&self, workspace: &Path, outcome: &RunOutcome, locale: Locale) -> RunResultView {
        let facts = ResultFacts::live(outcome, locale);
        let view = result_view(workspace, &facts);
        if let (Some(evidence), Some(evidence_dir)) =
            (outcome.summary.evidence_session.clone(), facts.evidence_dir)
        {
            self.own.ended(&evidence);
            let run = FinishedRun {
                workspace: workspace.to_path_buf(),
                evidence_dir,
                approvable: facts.approvable,
            };
            let mut inner = self.lock();
            inner.revealable.insert(run.evidence_dir.clone());
            inner.finished.insert(evidence, run);
        }
        view
    }

    /// Keeps a run read back from its evidence (see `reopen`), so Approve and Export
    /// work on it; a run of this window that is already known is never replaced.
    pub fn remember(&self, evidence_session: String, run: FinishedRun) {
        let mut inner = self.lock();
        inner.revealable.insert(run.evidence_dir.clone());
        inner.finished.entry(evidence_session).or_insert(run);
    }

    pub fn finished(&self, evidence_session: &str) -> Option<FinishedRun> {
        self.lock().finished.get(evidence_session).cloned()
    }

    /// Only what the app itself wrote may be revealed in the file manager.
    pub fn allow_reveal(&self, path: &Path) {
        self.lock().revealable.insert(path.to_path_buf());
    }

    pub fn may_reveal(&self, path: &Path) -> bool {
        self.lock().revealable.contains(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's task as a test stands it in.
    type Runs = super::Runs<tokio::task::JoinHandle<()>>;

    #[test]
    fn one_run_at_a_time_and_the_slot_frees_at_its_end() {
        let runs = Runs::default();
        let (first, cancel) = runs.begin().unwrap();
        assert_eq!(runs.begin().unwrap_err(), RunInProgress);
        assert!(!runs.cancel(first + 1), "another id is not the live run");
        assert!(runs.cancel(first));
        assert!(cancel.is_cancelled());
        runs.end(first);
        assert!(!runs.is_running());
        let (second, _) = runs.begin().unwrap();
        assert_ne!(first, second);
    }

    #[test]
    fn a_late_end_of_an_old_run_does_not_free_the_new_one() {
        let runs = Runs::default();
        let (first, _) = runs.begin().unwrap();
        runs.end(first);
        let (_second, _) = runs.begin().unwrap();
        runs.end(first);
        assert!(runs.is_running());
    }

    #[test]
    fn finished_results_are_kept_and_their_evidence_may_be_revealed() {
        let runs = Runs::default();
        let run = FinishedRun {
            workspace: "/ws".into(),
            evidence_dir: "/ws/sessions/e1".into(),
            approvable: None,
        };
        runs.remember("e1".into(), run);
        assert_eq!(
            runs.finished("e1").unwrap().evidence_dir,
            PathBuf::from("/ws/sessions/e1")
        );
        assert!(runs.finished("e2").is_none());
        assert!(runs.may_reveal(Path::new("/ws/sessions/e1")));
        assert!(!runs.may_reveal(Path::new("/etc")));
    }

    #[test]
    fn quitting_cancels_the_live_run_and_waits_for_its_task() {
        let runs = Runs::default();
        assert!(
            runs.cancel_for_exit().is_none(),
            "nothing to wait for when idle"
        );
        let (id, cancel) = runs.begin().unwrap();
        let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = finished.clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let task = runtime.spawn(async move {
            // Stands in for the run: it ends only once it is cancelled.
            cancel.cancelled().await;
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        runs.attach(id, task);
        let task = runs.cancel_for_exit().expect("the run's task");
        runtime.block_on(task).unwrap();
        assert!(finished.load(std::sync::atomic::Ordering::SeqCst));
    }
}
