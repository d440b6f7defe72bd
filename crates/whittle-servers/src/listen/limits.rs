//! What one `--listen` server lets the network hold of it: connections, sessions, time.
//! Each limit protects the server's file descriptors, memory or attention from a peer
//! that opens and never finishes (docs/SECURITY.md, "The lab host"); the defaults suit a
//! lab host serving a handful of Whittle runs at once.

use std::time::Duration;

/// Connections held open at once. Each holds one file descriptor; the rest of the
/// process (adb children, report files) needs some too, so the figure is also kept under
/// the process's own limit (`effective_max_connections`).
const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// MCP sessions held at once: a Whittle run opens one per server it uses.
const DEFAULT_MAX_SESSIONS: usize = 64;
/// How long a connection may take to send a whole request head, counted from its
/// opening or from the end of its last answer (so it is also the keep-alive idle time).
const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a session may go without a message before it is closed (rmcp's own default).
const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);
/// How long a session may be without any open connection before it is closed
/// (`session_links.rs`): a killed client's device is free again within this and the
/// moment its operating system closes its socket.
const DEFAULT_DISCONNECT_GRACE: Duration = Duration::from_secs(5);
/// Longest a client may take to finish the TLS handshake.
pub(super) const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// File descriptors kept free for the server's own work when the connection cap is
/// derived from the process's limit.
const DESCRIPTORS_KEPT: u64 = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    pub max_connections: usize,
    pub max_sessions: usize,
    pub idle_timeout: Duration,
    pub session_idle: Duration,
    pub disconnect_grace: Duration,
}

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            session_idle: DEFAULT_SESSION_IDLE,
            disconnect_grace: DEFAULT_DISCONNECT_GRACE,
        }
    }
}

impl ServeLimits {
    /// The connection cap actually applied: the configured one, lowered when the
    /// process may open fewer descriptors than that (`ulimit -n`), so the server sheds
    /// connections itself before `accept` starts failing.
    pub fn effective_max_connections(&self) -> usize {
        let by_descriptors = open_file_limit()
            .map(|limit| limit.saturating_sub(DESCRIPTORS_KEPT).max(1))
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usize::MAX);
        self.max_connections.min(by_descriptors).max(1)
    }
}

/// The soft `RLIMIT_NOFILE` of this process; `None` where there is no such limit.
#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_never_exceeds_the_descriptor_limit() {
        let limits = ServeLimits {
            max_connections: usize::MAX,
            ..ServeLimits::default()
        };
        let cap = limits.effective_max_connections();
        if let Some(limit) = open_file_limit() {
            assert!((cap as u64) < limit.max(2), "{cap} vs ulimit {limit}");
        }
        let small = ServeLimits {
            max_connections: 3,
            ..ServeLimits::default()
        };
        assert_eq!(small.effective_max_connections(), 3);
    }
}
