//! Which open connections carry which MCP sessions, so a session whose client is gone is
//! ended soon after its last connection closes instead of after `--session-idle-secs`
//! (a client killed mid-run kept its device busy for 300 s).
//!
//! The rule (docs/device-lab.md, "One run per device"): a session is ended when no
//! connection that carried one of its requests has been open for the grace time
//! (`--disconnect-grace-secs`). Whittle's own client keeps one kept-alive connection per
//! lab host for the whole run; rmcp's full client and the Python and TypeScript SDKs
//! keep a standing GET stream open; a client that opens a connection per request and
//! keeps nothing open between them keeps its session as long as its requests come
//! within the grace time of each other. A connection the server closed itself for
//! sitting idle (`--idle-timeout-secs`) is no sign of a dead client, so it starts no
//! grace: such a session is left to the session idle timeout.
//!
//! Only sessions the session table holds are linked (`sessions.rs` checks), so a client
//! naming made-up session ids grows nothing here.

use std::collections::{HashMap, HashSet};

use rmcp::transport::streamable_http_server::session::SessionId;

/// A connection's number on this server (`connections.rs`).
pub(super) type ConnectionId = u64;

/// How a connection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ConnectionEnd {
    /// The client closed it or it broke (a killed client's socket is closed by its
    /// operating system).
    ByPeer,
    /// The server closed it: idle past `--idle-timeout-secs`.
    Idle,
}

#[derive(Debug, Default)]
pub(super) struct SessionLinks {
    by_session: HashMap<SessionId, Link>,
    by_connection: HashMap<ConnectionId, HashSet<SessionId>>,
    /// Hands out generations: each time a session is carried it gets a new one.
    clock: u64,
}

#[derive(Debug)]
struct Link {
    open: HashSet<ConnectionId>,
    /// The generation of the last time the session was carried; an orphaned session's
    /// closure names the generation it saw, and is void once the session moved on.
    generation: u64,
}

/// A session left without an open connection, and the generation its closure must find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Orphan {
    pub(super) session: SessionId,
    pub(super) generation: u64,
}

impl SessionLinks {
    /// `connection` carried a request of `session`, which the session table holds.
    pub(super) fn carried(&mut self, session: &SessionId, connection: ConnectionId) {
        self.clock += 1;
        let generation = self.clock;
        let link = self.by_session.entry(session.clone()).or_insert(Link {
            open: HashSet::new(),
            generation,
        });
        link.generation = generation;
        link.open.insert(connection);
        self.by_connection
            .entry(connection)
            .or_default()
            .insert(session.clone());
    }

    /// A request naming `session` arrived on `connection`: linked only when the session
    /// is already known here (so before its answer, for a session that exists).
    pub(super) fn request(&mut self, session: &str, connection: ConnectionId) {
        let Some((session, _)) = self.by_session.get_key_value(session) else {
            return;
        };
        let session = session.clone();
        self.carried(&session, connection);
    }

    /// `connection` is closed: the sessions it leaves with no open connection, when the
    /// client's side ended it.
    pub(super) fn closed(&mut self, connection: ConnectionId, end: ConnectionEnd) -> Vec<Orphan> {
        let Some(sessions) = self.by_connection.remove(&connection) else {
            return Vec::new();
        };
        let mut orphans = Vec::new();
        for session in sessions {
            let Some(link) = self.by_session.get_mut(&session) else {
                continue;
            };
            link.open.remove(&connection);
            if link.open.is_empty() && end == ConnectionEnd::ByPeer {
                orphans.push(Orphan {
                    generation: link.generation,
                    session,
                });
            }
        }
        orphans
    }

    /// Whether `orphan` still has no open connection and carried nothing since.
    pub(super) fn still_orphaned(&self, orphan: &Orphan) -> bool {
        self.by_session
            .get(&orphan.session)
            .is_some_and(|link| link.open.is_empty() && link.generation == orphan.generation)
    }

    /// The session ended: nothing of it is kept.
    pub(super) fn forget(&mut self, session: &str) {
        let Some(link) = self.by_session.remove(session) else {
            return;
        };
        for connection in link.open {
            if let Some(sessions) = self.by_connection.get_mut(&connection) {
                sessions.remove(session);
                if sessions.is_empty() {
                    self.by_connection.remove(&connection);
                }
            }
        }
    }

    #[cfg(test)]
    fn sessions(&self) -> usize {
        self.by_session.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> SessionId {
        SessionId::from(s)
    }

    #[test]
    fn a_session_is_orphaned_when_its_last_connection_is_closed_by_the_client() {
        let mut links = SessionLinks::default();
        let (a, b) = (id("a"), id("b"));
        links.carried(&a, 1);
        links.carried(&a, 2);
        links.carried(&b, 2);
        // One of a's two connections goes: a still has one; b had only that one.
        let orphans = links.closed(2, ConnectionEnd::ByPeer);
        assert_eq!(orphans.len(), 1);
        assert_eq!(orphans[0].session, b);
        assert!(links.still_orphaned(&orphans[0]));
        let orphans = links.closed(1, ConnectionEnd::ByPeer);
        assert_eq!(orphans.len(), 1);
        assert_eq!(orphans[0].session, a);
    }

    #[test]
    fn a_request_on_a_new_connection_within_the_grace_keeps_the_session() {
        let mut links = SessionLinks::default();
        let a = id("a");
        links.carried(&a, 1);
        let orphan = links.closed(1, ConnectionEnd::ByPeer).remove(0);
        // A client opening a connection per request: the next one arrives.
        links.request("a", 2);
        assert!(!links.still_orphaned(&orphan));
        // ...and closes again: a new orphan, the old closure stays void.
        let again = links.closed(2, ConnectionEnd::ByPeer).remove(0);
        assert!(!links.still_orphaned(&orphan), "an older generation");
        assert!(links.still_orphaned(&again));
    }

    #[test]
    fn the_servers_own_idle_close_orphans_nothing_and_unknown_sessions_are_not_kept() {
        let mut links = SessionLinks::default();
        let a = id("a");
        links.carried(&a, 1);
        assert!(links.closed(1, ConnectionEnd::Idle).is_empty());
        // Made-up session ids on a connection: nothing is kept of them.
        for n in 0..1000 {
            links.request(&format!("made-up-{n}"), 3);
        }
        assert_eq!(links.sessions(), 1);
        assert!(links.closed(3, ConnectionEnd::ByPeer).is_empty());
        links.forget("a");
        assert_eq!(links.sessions(), 0);
        assert!(links.by_connection.is_empty());
    }
}
