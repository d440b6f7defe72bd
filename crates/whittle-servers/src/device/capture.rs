//! Evidence captures of every device backend: one `<session_dir>/logcat.txt` per
//! session, fed by something the backend chooses (an `adb logcat` child, or nothing when
//! the backend writes its log lines itself with [`Captures::append`]). A feed that ends
//! on its own turns its capture `failed` with the reason, never silently `running`.
//!
//! On a lab host (`--listen`) a capture belongs to the MCP session that started it (its
//! [`CaptureOwner`]): only that session lists, stops or starts it again, and it ends
//! when that session ends (`lab_session`), so a dead run's capture never records later
//! runs into its evidence. Over stdio there is one client and no owner.
use std::collections::BTreeMap;
use std::fs::File;
use std::future::Future;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use whittle_contract::log::{Capture, CaptureState, StopCaptureResult};

use crate::device::capture_log::{check_session_id, CaptureLogError, OpenedLog};

/// The lab host's number of the MCP session that started a capture (`lease`).
pub type CaptureOwner = u64;

/// Why a capture did not start: the request or its log file, or the device.
#[derive(Debug, thiserror::Error)]
pub enum CaptureStartError<E> {
    #[error(transparent)]
    Log(#[from] CaptureLogError),
    #[error(transparent)]
    Device(E),
}

impl<E> CaptureStartError<E> {
    pub fn map_device<F>(self, f: impl FnOnce(E) -> F) -> CaptureStartError<F> {
        match self {
            CaptureStartError::Log(e) => CaptureStartError::Log(e),
            CaptureStartError::Device(e) => CaptureStartError::Device(f(e)),
        }
    }
}

/// What feeds a capture's log file.
pub trait CaptureFeed: Send + 'static {
    /// Why ending the feed failed; its message becomes the failed capture's reason.
    type EndError: std::error::Error + Send + 'static;
    /// Why the feed ended on its own since the last look, if it did.
    fn ended(&mut self) -> Option<String>;
    /// Ends the feed. Owned, so the registry's lock is not held while it ends.
    fn end(self) -> impl Future<Output = Result<(), Self::EndError>> + Send;
}

/// No feed: the backend appends its own lines.
impl CaptureFeed for () {
    type EndError = std::convert::Infallible;

    fn ended(&mut self) -> Option<String> {
        None
    }

    async fn end(self) -> Result<(), Self::EndError> {
        Ok(())
    }
}

#[derive(Debug)]
struct Entry<F> {
    device: String,
    log_path: PathBuf,
    /// The log file as opened at the start: appended to through this handle, never
    /// opened by its path again (a link put in its place is not followed).
    log: File,
    owner: Option<CaptureOwner>,
    status: CaptureState,
    reason: Option<String>,
    /// `None` once failed or stopped, and while being ended by `stop`.
    feed: Option<F>,
}

impl<F: CaptureFeed> Entry<F> {
    fn poll(&mut self) {
        if self.status != CaptureState::Running {
            return;
        }
        if let Some(reason) = self.feed.as_mut().and_then(CaptureFeed::ended) {
            self.fail(reason);
        }
    }

    /// Dropping the feed ends it (an adb child is killed on drop).
    fn fail(&mut self, reason: String) {
        self.status = CaptureState::Failed;
        self.reason = Some(reason);
        self.feed = None;
    }

    fn answer(&self, stopped: bool) -> StopCaptureResult {
        StopCaptureResult {
            stopped,
            status: self.status,
            reason: if stopped { None } else { self.reason.clone() },
            error: None,
            log_path: Some(self.log_path.display().to_string()),
        }
    }
}

/// What the first, locked half of a stop found.
pub enum Stop<F> {
    Answered(StopCaptureResult),
    /// A feed to end before the capture counts as stopped.
    Ending(F),
    /// Another session's capture: not the caller's to stop.
    NotYours,
}

impl<F> Entry<F> {
    /// Whether `viewer` may see and stop it: over stdio (no viewer) anyone, else its owner.
    fn visible_to(&self, viewer: Option<CaptureOwner>) -> bool {
        viewer.is_none() || self.owner == viewer
    }
}

#[derive(Debug)]
pub struct Captures<F> {
    entries: BTreeMap<String, Entry<F>>,
}

impl<F> Default for Captures<F> {
    fn default() -> Self {
        Captures {
            entries: BTreeMap::new(),
        }
    }
}

impl<F: CaptureFeed> Captures<F> {
    /// Starts capturing `device` into `log` for `owner` (`None` over stdio); `feed`
    /// gets the opened file (and its path, for errors) and returns what will keep
    /// writing it.
    pub fn start<E>(
        &mut self,
        session_id: &str,
        log: OpenedLog,
        device: &str,
        owner: Option<CaptureOwner>,
        feed: impl FnOnce(&Path, File) -> Result<F, CaptureStartError<E>>,
    ) -> Result<CaptureState, CaptureStartError<E>> {
        check_session_id(session_id)?;
        if let Some(e) = self.entries.get_mut(session_id) {
            e.poll();
            if e.status == CaptureState::Running {
                let refusal = match e.owner == owner {
                    true => CaptureLogError::AlreadyRunning(session_id.to_string()),
                    false => CaptureLogError::NotYours(session_id.to_string()),
                };
                return Err(refusal.into());
            }
        }
        let OpenedLog { path, file } = log;
        let kept = file.try_clone().map_err(|source| CaptureLogError::Open {
            path: path.clone(),
            source,
        })?;
        let feed = feed(&path, file)?;
        self.entries.insert(
            session_id.to_string(),
            Entry {
                device: device.to_string(),
                log_path: path,
                log: kept,
                owner,
                status: CaptureState::Running,
                reason: None,
                feed: Some(feed),
            },
        );
        Ok(CaptureState::Running)
    }

    /// Appends lines to every running capture of `device`; a write failure fails that
    /// capture rather than going unnoticed.
    pub fn append(&mut self, device: &str, lines: &[String]) {
        let running = self
            .entries
            .values_mut()
            .filter(|e| e.device == device && e.status == CaptureState::Running);
        for e in running {
            let mut log = &e.log;
            let written = lines.iter().try_for_each(|line| writeln!(log, "{line}"));
            if let Err(err) = written {
                let reason = format!("cannot write {}: {err}", e.log_path.display());
                e.fail(reason);
            }
        }
    }

    /// Fails running captures with `reason`: `session_id`'s, or all when `None`.
    pub fn fail(&mut self, session_id: Option<&str>, reason: &str) {
        for (id, e) in self.entries.iter_mut() {
            if session_id.is_none_or(|s| s == id) && e.status == CaptureState::Running {
                e.fail(reason.to_string());
            }
        }
    }

    /// Fails `owner`'s running captures of `device` with `reason` (its lease lapsed and
    /// another session took the device: what the log holds from then on is not its run's).
    pub fn fail_owned_on(&mut self, owner: CaptureOwner, device: &str, reason: &str) {
        let owned = self.entries.values_mut().filter(|e| {
            e.owner == Some(owner) && e.device == device && e.status == CaptureState::Running
        });
        for e in owned {
            e.fail(reason.to_string());
        }
    }

    /// Ends and forgets every capture `owner` started (its session ended): their feeds
    /// are dropped, which stops them (an adb child is killed on drop). How many ran.
    pub fn end_owned_by(&mut self, owner: CaptureOwner) -> usize {
        let before = self.entries.len();
        let mut running = 0;
        self.entries.retain(|_, e| {
            let owned = e.owner == Some(owner);
            running += usize::from(owned && e.status == CaptureState::Running);
            !owned
        });
        debug_assert!(self.entries.len() <= before);
        running
    }

    /// Whether `owner` has a capture running (a run in flight: `listen::SessionHolds`).
    pub fn runs_for(&mut self, owner: CaptureOwner) -> bool {
        self.entries.values_mut().any(|e| {
            e.poll();
            e.owner == Some(owner) && e.status == CaptureState::Running
        })
    }

    /// The captures `viewer` may see: its own on a lab host, all over stdio.
    pub fn list(&mut self, viewer: Option<CaptureOwner>) -> Vec<Capture> {
        self.entries
            .iter_mut()
            .filter(|(_, e)| e.visible_to(viewer))
            .map(|(id, e)| {
                e.poll();
                Capture {
                    session_id: id.clone(),
                    status: e.status,
                    reason: e.reason.clone(),
                }
            })
            .collect()
    }

    /// The locked half of a stop by `by` (`None` over stdio). A capture that had
    /// already failed reports that (`stopped: false` with the reason): its log has a gap.
    pub fn stop(&mut self, session_id: &str, by: Option<CaptureOwner>) -> Stop<F> {
        let Some(e) = self.entries.get_mut(session_id) else {
            return Stop::Answered(StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: None,
                error: Some(format!("no capture for session {session_id:?}")),
                log_path: None,
            });
        };
        if !e.visible_to(by) {
            return Stop::NotYours;
        }
        e.poll();
        if e.status == CaptureState::Failed {
            return Stop::Answered(e.answer(false));
        }
        match e.feed.take() {
            Some(feed) => Stop::Ending(feed),
            None => {
                e.status = CaptureState::Stopped;
                Stop::Answered(e.answer(true))
            }
        }
    }

    /// The second half: how ending the feed went.
    pub fn ended(
        &mut self,
        session_id: &str,
        result: Result<(), F::EndError>,
    ) -> StopCaptureResult {
        let Some(e) = self.entries.get_mut(session_id) else {
            return StopCaptureResult {
                stopped: false,
                status: CaptureState::Failed,
                reason: None,
                error: Some(format!("no capture for session {session_id:?}")),
                log_path: None,
            };
        };
        match result {
            Ok(()) => {
                e.status = CaptureState::Stopped;
                e.answer(true)
            }
            Err(reason) => {
                e.fail(reason.to_string());
                e.answer(false)
            }
        }
    }
}

/// A registry behind a lock, as both backends hold theirs. No await happens under the
/// lock; a stop ends its feed outside it.
#[derive(Debug)]
pub struct SharedCaptures<F>(Mutex<Captures<F>>);

impl<F> Default for SharedCaptures<F> {
    fn default() -> Self {
        SharedCaptures(Mutex::new(Captures::default()))
    }
}

impl<F: CaptureFeed> SharedCaptures<F> {
    /// A panicking holder cannot leave an entry half-updated in a way that matters
    /// more than answering, so a poisoned lock is used as is.
    pub fn lock(&self) -> MutexGuard<'_, Captures<F>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops `session_id`'s capture for `by` (`None` over stdio); refused when another
    /// session owns it.
    pub async fn stop(
        &self,
        session_id: &str,
        by: Option<CaptureOwner>,
    ) -> Result<StopCaptureResult, CaptureLogError> {
        let stop = self.lock().stop(session_id, by);
        match stop {
            Stop::Answered(answer) => Ok(answer),
            Stop::NotYours => Err(CaptureLogError::NotYours(session_id.to_string())),
            Stop::Ending(feed) => {
                let result = feed.end().await;
                Ok(self.lock().ended(session_id, result))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A feed whose fate the test decides.
    struct Scripted {
        dies_with: Option<&'static str>,
        end_fails: bool,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("cannot stop the feed")]
    struct Unstoppable;

    impl CaptureFeed for Scripted {
        type EndError = Unstoppable;

        fn ended(&mut self) -> Option<String> {
            self.dies_with.map(str::to_string)
        }

        async fn end(self) -> Result<(), Unstoppable> {
            match self.end_fails {
                true => Err(Unstoppable),
                false => Ok(()),
            }
        }
    }

    fn log(dir: &Path) -> OpenedLog {
        let path = dir.join(crate::device::capture_log::LOG_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        OpenedLog { path, file }
    }

    fn start(captures: &SharedCaptures<Scripted>, dir: &Path, id: &str, feed: Scripted) {
        let started = captures
            .lock()
            .start::<()>(id, log(dir), "dev", None, |_, _| Ok(feed));
        assert_eq!(started.unwrap(), CaptureState::Running);
    }

    #[tokio::test]
    async fn a_feed_that_dies_or_cannot_be_ended_fails_its_capture_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let captures = SharedCaptures::default();
        let live = || Scripted {
            dies_with: None,
            end_fails: false,
        };
        start(&captures, dir.path(), "live", live());
        let again = captures
            .lock()
            .start::<()>("live", log(dir.path()), "dev", None, |_, _| Ok(live()));
        assert!(matches!(
            again,
            Err(CaptureStartError::Log(CaptureLogError::AlreadyRunning(_)))
        ));
        let dying = Scripted {
            dies_with: Some("feed exited (1)"),
            end_fails: false,
        };
        start(&captures, dir.path(), "dying", dying);
        let stuck = Scripted {
            dies_with: None,
            end_fails: true,
        };
        start(&captures, dir.path(), "stuck", stuck);

        let listed = captures.lock().list(None);
        let status: Vec<_> = listed
            .iter()
            .map(|c| (c.session_id.as_str(), c.status))
            .collect();
        assert_eq!(
            status,
            [
                ("dying", CaptureState::Failed),
                ("live", CaptureState::Running),
                ("stuck", CaptureState::Running)
            ]
        );
        let died = captures.stop("dying", None).await.unwrap();
        assert_eq!(
            (died.stopped, died.reason.as_deref()),
            (false, Some("feed exited (1)"))
        );
        let stuck = captures.stop("stuck", None).await.unwrap();
        assert_eq!((stuck.stopped, stuck.status), (false, CaptureState::Failed));
        assert_eq!(stuck.reason.as_deref(), Some("cannot stop the feed"));
        let stopped = captures.stop("live", None).await.unwrap();
        assert_eq!(
            (stopped.stopped, stopped.status),
            (true, CaptureState::Stopped)
        );
        // A stopped session may capture again.
        start(&captures, dir.path(), "live", live());
    }

    #[tokio::test]
    async fn a_capture_is_its_owners_to_list_stop_and_restart_and_ends_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let captures = SharedCaptures::default();
        let live = || Scripted {
            dies_with: None,
            end_fails: false,
        };
        let (owner, other) = (Some(1), Some(2));
        let started = captures
            .lock()
            .start::<()>("run", log(dir.path()), "dev", owner, |_, _| Ok(live()));
        assert!(started.is_ok());
        assert_eq!(captures.lock().list(owner).len(), 1);
        assert!(
            captures.lock().list(other).is_empty(),
            "not the other's to read"
        );
        assert_eq!(captures.lock().list(None).len(), 1, "stdio sees everything");
        assert!(matches!(
            captures.stop("run", other).await,
            Err(CaptureLogError::NotYours(_))
        ));
        let again = captures
            .lock()
            .start::<()>("run", log(dir.path()), "dev", other, |_, _| Ok(live()));
        assert!(matches!(
            again,
            Err(CaptureStartError::Log(CaptureLogError::NotYours(_)))
        ));
        assert!(captures.lock().runs_for(1));
        assert!(!captures.lock().runs_for(2));
        // Its lease lapsed and another session took the device: failed, with why.
        captures.lock().fail_owned_on(1, "dev", "taken");
        assert_eq!(captures.lock().list(owner)[0].status, CaptureState::Failed);
        // Its session ended: gone, and the id is free for another session.
        assert_eq!(captures.lock().end_owned_by(1), 0, "it had failed already");
        assert!(captures.lock().list(None).is_empty());
        let resumed = captures
            .lock()
            .start::<()>("run", log(dir.path()), "dev", other, |_, _| Ok(live()));
        assert!(resumed.is_ok());
        assert_eq!(captures.lock().end_owned_by(2), 1);
    }
}
