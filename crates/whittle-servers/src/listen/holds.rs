//! What a served MCP session holds besides its place in the session table: a device
//! server's sessions hold devices and log captures (`crate::device`), which a run needs
//! until its end. The session ceiling (`sessions.rs`) asks before closing a session for
//! a newcomer, so a run in flight is never closed to make room (docs/SECURITY.md §10a).

/// Answers, by MCP session id (`Mcp-Session-Id`), whether a session holds something a
/// run needs. Called under the session table's lock: it must not call back into it.
pub trait SessionHolds: Send + Sync + 'static {
    fn holds(&self, session: &str) -> bool;
}

/// A server whose sessions hold nothing (report, analyzer): only their own requests in
/// progress keep them.
pub struct HoldsNothing;

impl SessionHolds for HoldsNothing {
    fn holds(&self, _session: &str) -> bool {
        false
    }
}
