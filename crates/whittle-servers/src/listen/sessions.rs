//! rmcp's session manager with a ceiling. A session costs memory until it is closed or
//! sits idle for `--session-idle-secs`; without a ceiling, a client that opens sessions
//! and never closes them fills the server's memory. At the ceiling one session is closed
//! for the new one: the least active (only `initialize`, then only notifications, then
//! requests), and among equals the one used least recently. A client finishes its
//! handshake at once and a run calls tools, so a run keeps its session through a flood
//! of opened and abandoned ones.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use super::throttle::{Throttle, LOG_PERIOD};

pub(super) struct CappedSessions {
    inner: LocalSessionManager,
    max: usize,
    uses: Mutex<Uses>,
    /// Eviction and creation happen one at a time, so the ceiling holds exactly.
    opening: tokio::sync::Mutex<()>,
    evictions: Throttle,
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

    /// When `max` sessions are open, the one to close for a new one, no longer counted:
    /// the least active, and among equals the least recently used.
    fn evict_one_if_full(&mut self, max: usize) -> Option<SessionId> {
        if self.by_session.len() < max {
            return None;
        }
        let victim = self
            .by_session
            .iter()
            .min_by_key(|(_, u)| (u.activity, u.last))
            .map(|(id, _)| id.clone())?;
        self.by_session.remove(&victim);
        Some(victim)
    }
}

impl CappedSessions {
    pub(super) fn new(inner: LocalSessionManager, max: usize) -> CappedSessions {
        CappedSessions {
            inner,
            max: max.max(1),
            uses: Mutex::new(Uses::default()),
            opening: tokio::sync::Mutex::new(()),
            evictions: Throttle::new(LOG_PERIOD),
        }
    }

    fn uses(&self) -> std::sync::MutexGuard<'_, Uses> {
        self.uses.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self, id: &SessionId, activity: Activity) {
        self.uses().touch(id, activity);
    }

    #[cfg(test)]
    pub(super) fn open(&self) -> usize {
        self.uses().by_session.len()
    }
}

impl SessionManager for CappedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _one_at_a_time = self.opening.lock().await;
        loop {
            // Its own statement, so the lock is released before the await below.
            let victim = self.uses().evict_one_if_full(self.max);
            let Some(victim) = victim else { break };
            if let Some(left_out) = self.evictions.admit(Instant::now()) {
                tracing::warn!(
                    max_sessions = self.max,
                    left_out,
                    "session limit reached: closed the least used session for a new one"
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
        answer
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.uses().by_session.remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id, Activity::Requested);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id, Activity::Spoke);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id, Activity::Spoke);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id, Activity::Spoke);
        self.inner.resume(id, last_event_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_ceiling_holds_and_a_session_in_use_outlives_unused_ones() {
        let sessions = CappedSessions::new(LocalSessionManager::default(), 3);
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
        let sessions = CappedSessions::new(LocalSessionManager::default(), 2);
        // Created for an `initialize` still on its way (its request not scheduled yet).
        let (opening, _t) = sessions.create_session().await.unwrap();
        let (idle, _t2) = sessions.create_session().await.unwrap();
        sessions.uses().initialized(&idle);
        // At the ceiling, a newcomer: the idle one goes, though the opening one is older.
        let (_newer, _t3) = sessions.create_session().await.unwrap();
        assert!(sessions.has_session(&opening).await.unwrap(), "kept");
        assert!(!sessions.has_session(&idle).await.unwrap(), "closed");
    }
}
