//! rmcp's session manager with a ceiling, kept from closing a run in flight, and told
//! when a session's client is gone.
//!
//! A session costs memory until it is closed or sits idle for `--session-idle-secs`;
//! without a ceiling, a client that opens sessions and never closes them fills the
//! server's memory. At the ceiling one session is closed for the new one: never one
//! with a run in flight (a request in progress, or a device or log capture it holds,
//! `holds.rs`), and among the others the least active (only `initialize`, then only
//! notifications, then requests), and among equals the one used least recently. When
//! every session has a run in flight the newcomer is refused instead (`http.rs` answers
//! 503). A client finishes its handshake at once and a run calls tools, so a run keeps
//! its session through a flood of opened and abandoned ones.
//!
//! A session none of whose connections is open any more is closed after the grace time
//! (`session_links.rs` has the rule), which ends what it held.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use super::holds::SessionHolds;
use super::session_links::{ConnectionEnd, ConnectionId, Orphan, SessionLinks};
use super::throttle::{Throttle, LOG_PERIOD};

pub(super) struct CappedSessions {
    inner: LocalSessionManager,
    max: usize,
    uses: Arc<Mutex<Uses>>,
    links: Mutex<SessionLinks>,
    holds: Arc<dyn SessionHolds>,
    /// Eviction and creation happen one at a time, so the ceiling holds exactly.
    opening: tokio::sync::Mutex<()>,
    evictions: Throttle,
    refusals: Throttle,
    orphans_ended: Throttle,
}

/// Why a session was not opened or served.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionsError {
    #[error(transparent)]
    Inner(#[from] LocalSessionManagerError),
    #[error(
        "every one of the {max} MCP sessions has a run in flight; none is closed for a new one"
    )]
    Full { max: usize },
}

#[derive(Default)]
struct Uses {
    clock: u64,
    by_session: HashMap<SessionId, Use>,
}

/// How far a session got, least first: the order in which sessions are closed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Activity {
    /// Its `initialize` answered, nothing since: what a flood leaves behind.
    Initialized,
    /// Created for an `initialize` that is not answered yet. Closing it would fail that
    /// `initialize` with HTTP 500 (seen in the flood test when the creating request was
    /// slow to be scheduled), so it goes only after every session that is done with
    /// its handshake and silent.
    Opening,
    /// A notification (the handshake's end) or a stream since.
    Spoke,
    /// A request since.
    Requested,
}

#[derive(Clone, Copy)]
struct Use {
    activity: Activity,
    last: u64,
    /// Requests whose answer stream is still open.
    in_progress: u32,
}

impl Uses {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn open(&mut self, id: SessionId) {
        let last = self.tick();
        self.by_session.insert(
            id,
            Use {
                activity: Activity::Opening,
                last,
                in_progress: 0,
            },
        );
    }

    fn touch(&mut self, id: &SessionId, activity: Activity) {
        let last = self.tick();
        if let Some(entry) = self.by_session.get_mut(id) {
            entry.last = last;
            entry.activity = entry.activity.max(activity);
        }
    }

    /// The session's `initialize` was answered: from now on it is closed as any idle one.
    fn initialized(&mut self, id: &SessionId) {
        if let Some(entry) = self.by_session.get_mut(id) {
            if entry.activity == Activity::Opening {
                entry.activity = Activity::Initialized;
            }
        }
    }

    fn request_started(&mut self, id: &SessionId) {
        if let Some(entry) = self.by_session.get_mut(id) {
            entry.in_progress += 1;
        }
    }

    fn request_ended(&mut self, id: &SessionId) {
        if let Some(entry) = self.by_session.get_mut(id) {
            entry.in_progress = entry.in_progress.saturating_sub(1);
        }
    }

    /// When `max` sessions are open, the one to close for a new one, no longer counted:
    /// of those without a run in flight (`in_flight`), the least active, and among equals
    /// the least recently used. `Err` when every one has a run in flight.
    fn evict_one_if_full(
        &mut self,
        max: usize,
        in_flight: impl Fn(&SessionId, &Use) -> bool,
    ) -> Result<Option<SessionId>, ()> {
        if self.by_session.len() < max {
            return Ok(None);
        }
        let victim = self
            .by_session
            .iter()
            .filter(|(id, u)| !in_flight(id, u))
            .min_by_key(|(_, u)| (u.activity, u.last))
            .map(|(id, _)| id.clone())
            .ok_or(())?;
        self.by_session.remove(&victim);
        Ok(Some(victim))
    }
}

/// Locks the table; it stays consistent whatever panicked while holding the lock.
fn lock_uses(uses: &Mutex<Uses>) -> std::sync::MutexGuard<'_, Uses> {
    uses.lock().unwrap_or_else(|e| e.into_inner())
}

impl CappedSessions {
    pub(super) fn new(
        inner: LocalSessionManager,
        max: usize,
        holds: Arc<dyn SessionHolds>,
    ) -> CappedSessions {
        CappedSessions {
            inner,
            max: max.max(1),
            uses: Arc::default(),
            links: Mutex::default(),
            holds,
            opening: tokio::sync::Mutex::new(()),
            evictions: Throttle::new(LOG_PERIOD),
            refusals: Throttle::new(LOG_PERIOD),
            orphans_ended: Throttle::new(LOG_PERIOD),
        }
    }

    fn uses(&self) -> std::sync::MutexGuard<'_, Uses> {
        lock_uses(&self.uses)
    }

    fn links(&self) -> std::sync::MutexGuard<'_, SessionLinks> {
        self.links.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self, id: &SessionId, activity: Activity) {
        self.uses().touch(id, activity);
    }

    /// A run in flight: a request in progress, or something the server says it holds.
    fn in_flight(&self, id: &SessionId, entry: &Use) -> bool {
        entry.in_progress > 0 || self.holds.holds(id)
    }

    /// Whether a new session would be opened now (`http.rs` refuses an `initialize`
    /// with 503 otherwise, before rmcp builds anything for it).
    pub(super) fn admits_newcomer(&self) -> bool {
        let uses = self.uses();
        uses.by_session.len() < self.max
            || uses
                .by_session
                .iter()
                .any(|(id, entry)| !self.in_flight(id, entry))
    }

    pub(super) fn max(&self) -> usize {
        self.max
    }

    /// A request naming `session` arrived on `connection` (`session_links.rs`).
    pub(super) fn request_on(&self, session: &str, connection: ConnectionId) {
        self.links().request(session, connection);
    }

    /// `connection` carried a request of `session` that was answered. Only a session the
    /// table holds is linked: a closed one (its `DELETE`) or a made-up one is not.
    pub(super) fn carried_on(&self, session: &str, connection: ConnectionId) {
        let known = self
            .uses()
            .by_session
            .get_key_value(session)
            .map(|(id, _)| id.clone());
        if let Some(id) = known {
            self.links().carried(&id, connection);
        }
    }

    /// `connection` closed: the sessions to end after the grace time unless they are
    /// carried again meanwhile.
    pub(super) fn connection_closed(
        &self,
        connection: ConnectionId,
        end: ConnectionEnd,
    ) -> Vec<Orphan> {
        self.links().closed(connection, end)
    }

    /// Ends `orphan` if it is still without a connection; whether it was ended.
    pub(super) async fn end_if_orphaned(&self, orphan: &Orphan) -> bool {
        if !self.links().still_orphaned(orphan) {
            return false;
        }
        if let Some(left_out) = self.orphans_ended.admit(Instant::now()) {
            tracing::info!(
                left_out,
                "closed an MCP session none of whose connections is open any more: its client is gone"
            );
        }
        if let Err(e) = self.close_session(&orphan.session).await {
            tracing::debug!(error = %e, "the session without connections was already gone");
        }
        true
    }

    #[cfg(test)]
    pub(super) fn open(&self) -> usize {
        self.uses().by_session.len()
    }
}

/// A request's answer stream; the request counts as in progress until it is dropped
/// (answered, or its connection gone).
struct InProgress {
    stream: Pin<Box<dyn Stream<Item = ServerSseMessage> + Send + Sync>>,
    uses: Arc<Mutex<Uses>>,
    session: SessionId,
}

impl Stream for InProgress {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.stream.as_mut().poll_next(cx)
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        lock_uses(&self.uses).request_ended(&self.session);
    }
}

impl SessionManager for CappedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _one_at_a_time = self.opening.lock().await;
        loop {
            // Its own statement, so the lock is released before the await below.
            let victim = self
                .uses()
                .evict_one_if_full(self.max, |id, entry| self.in_flight(id, entry));
            let victim = match victim {
                Ok(Some(victim)) => victim,
                Ok(None) => break,
                Err(()) => {
                    if let Some(left_out) = self.refusals.admit(Instant::now()) {
                        tracing::warn!(
                            max_sessions = self.max,
                            left_out,
                            "session limit reached, every session with a run in flight: refused a new one"
                        );
                    }
                    return Err(SessionsError::Full { max: self.max });
                }
            };
            self.links().forget(&victim);
            if let Some(left_out) = self.evictions.admit(Instant::now()) {
                tracing::warn!(
                    max_sessions = self.max,
                    left_out,
                    "session limit reached: closed the least used session without a run in flight for a new one"
                );
            }
            // A victim that ended on its own meanwhile is gone either way: that must not
            // refuse the newcomer (it answered HTTP 500 under load).
            if let Err(e) = self.inner.close_session(&victim).await {
                tracing::debug!(error = %e, "the session chosen to close was already gone");
            }
        }
        let (id, transport) = self.inner.create_session().await?;
        self.uses().open(id.clone());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let answer = self.inner.initialize_session(id, message).await;
        self.uses().initialized(id);
        Ok(answer?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.uses().by_session.remove(id);
        self.links().forget(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        {
            let mut uses = self.uses();
            uses.touch(id, Activity::Requested);
            uses.request_started(id);
        }
        // Counted from before the request reaches the session, so it is never a
        // candidate for eviction while it is on its way.
        let in_progress =
            |stream: Pin<Box<dyn Stream<Item = ServerSseMessage> + Send + Sync>>| InProgress {
                stream,
                uses: Arc::clone(&self.uses),
                session: id.clone(),
            };
        match self.inner.create_stream(id, message).await {
            Ok(stream) => Ok(in_progress(Box::pin(stream))),
            Err(e) => {
                self.uses().request_ended(id);
                Err(e.into())
            }
        }
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id, Activity::Spoke);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id, Activity::Spoke);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id, Activity::Spoke);
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::listen::holds::HoldsNothing;

    /// Sessions the test says hold a device.
    #[derive(Default)]
    struct Holding(Mutex<HashSet<String>>);

    impl SessionHolds for Holding {
        fn holds(&self, session: &str) -> bool {
            self.0.lock().unwrap().contains(session)
        }
    }

    fn capped(max: usize) -> CappedSessions {
        CappedSessions::new(LocalSessionManager::default(), max, Arc::new(HoldsNothing))
    }

    #[tokio::test]
    async fn the_ceiling_holds_and_a_session_in_use_outlives_unused_ones() {
        let sessions = capped(3);
        let (busy, _t) = sessions.create_session().await.unwrap();
        sessions.touch(&busy, Activity::Requested);
        let (handshaken, _t2) = sessions.create_session().await.unwrap();
        sessions.touch(&handshaken, Activity::Spoke);
        let mut transports = Vec::new();
        for _ in 0..50 {
            let (id, t) = sessions.create_session().await.unwrap();
            transports.push((id, t));
            assert!(sessions.open() <= 3);
        }
        assert!(sessions.has_session(&busy).await.unwrap(), "in use: kept");
        assert!(
            sessions.has_session(&handshaken).await.unwrap(),
            "past its handshake: kept while abandoned ones go"
        );
        assert!(
            !sessions.has_session(&transports[0].0).await.unwrap(),
            "an early unused session was closed"
        );
        assert_eq!(sessions.inner.sessions.read().await.len(), 3);
    }

    #[tokio::test]
    async fn a_session_whose_initialize_is_not_answered_yet_outlives_idle_ones() {
        let sessions = capped(2);
        // Created for an `initialize` still on its way (its request not scheduled yet).
        let (opening, _t) = sessions.create_session().await.unwrap();
        let (idle, _t2) = sessions.create_session().await.unwrap();
        sessions.uses().initialized(&idle);
        // At the ceiling, a newcomer: the idle one goes, though the opening one is older.
        let (_newer, _t3) = sessions.create_session().await.unwrap();
        assert!(sessions.has_session(&opening).await.unwrap(), "kept");
        assert!(!sessions.has_session(&idle).await.unwrap(), "closed");
    }

    #[tokio::test]
    async fn a_run_in_flight_is_never_closed_for_a_newcomer_who_is_refused_instead() {
        let holding = Arc::new(Holding::default());
        let sessions = CappedSessions::new(LocalSessionManager::default(), 2, holding.clone());
        // The oldest and least active session holds a device; the other has a request
        // in progress.
        let (holder, _t) = sessions.create_session().await.unwrap();
        sessions.uses().initialized(&holder);
        holding.0.lock().unwrap().insert(holder.to_string());
        let (asking, _t2) = sessions.create_session().await.unwrap();
        sessions.uses().initialized(&asking);
        sessions.uses().request_started(&asking);
        assert!(!sessions.admits_newcomer());
        for _ in 0..5 {
            assert!(matches!(
                sessions.create_session().await,
                Err(SessionsError::Full { max: 2 })
            ));
        }
        assert!(sessions.has_session(&holder).await.unwrap());
        assert!(sessions.has_session(&asking).await.unwrap());
        // The request answered: that session may go now, the holder still may not.
        sessions.uses().request_ended(&asking);
        assert!(sessions.admits_newcomer());
        let (_newcomer, _t3) = sessions.create_session().await.unwrap();
        assert!(sessions.has_session(&holder).await.unwrap(), "held: kept");
        assert!(!sessions.has_session(&asking).await.unwrap());
    }

    #[tokio::test]
    async fn a_session_without_connections_is_ended_unless_carried_again() {
        let sessions = capped(4);
        let (gone, _t) = sessions.create_session().await.unwrap();
        let (back, _t2) = sessions.create_session().await.unwrap();
        sessions.carried_on(&gone, 1);
        sessions.carried_on(&back, 2);
        // A made-up session id is never linked.
        sessions.carried_on("made-up", 1);
        let gone_orphan = sessions.connection_closed(1, ConnectionEnd::ByPeer);
        let back_orphan = sessions.connection_closed(2, ConnectionEnd::ByPeer);
        assert_eq!(gone_orphan.len(), 1);
        // Its client comes back on a new connection within the grace time.
        sessions.request_on(&back, 3);
        assert!(sessions.end_if_orphaned(&gone_orphan[0]).await);
        assert!(!sessions.end_if_orphaned(&back_orphan[0]).await);
        assert!(!sessions.has_session(&gone).await.unwrap(), "ended");
        assert!(sessions.has_session(&back).await.unwrap(), "kept");
        assert_eq!(sessions.open(), 1);
    }
}
