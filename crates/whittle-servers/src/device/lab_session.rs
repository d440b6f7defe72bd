//! One MCP session of a lab host (`--listen`) and what it owns: the devices it holds
//! (`lease`) and the log captures it started (`capture`). Both end when the session
//! ends — closed by its client, dropped with its connections, timed out, or closed at
//! the session ceiling —, so a run whose client died never keeps a device busy nor
//! keeps recording later runs into its evidence. While it holds either, the session
//! table never closes it to make room ([`LabHolds`]).
use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

use super::backend::DeviceBackend;
use super::lease::{LabLeases, SessionLeases};
use crate::listen::SessionHolds;

/// The `error` of a refused stop of another session's capture.
pub const CAPTURE_NOT_YOURS: &str = "capture_not_yours";

/// One session's devices and captures; dropped with the session's server value.
pub struct LabSession<B: DeviceBackend> {
    leases: SessionLeases,
    backend: Arc<B>,
}

impl<B: DeviceBackend> LabSession<B> {
    pub fn new(lab: &Arc<LabLeases>, backend: Arc<B>) -> LabSession<B> {
        LabSession {
            leases: lab.session(),
            backend,
        }
    }

    pub fn leases(&self) -> &SessionLeases {
        &self.leases
    }

    /// This session's number on this host: the owner of its captures.
    pub fn number(&self) -> u64 {
        self.leases.number()
    }
}

impl<B: DeviceBackend> Drop for LabSession<B> {
    /// Ends its captures; its leases end as `leases` is dropped right after.
    fn drop(&mut self) {
        let ended = self.backend.captures().lock().end_owned_by(self.number());
        if ended > 0 {
            tracing::info!(
                session = self.number(),
                captures = ended,
                "session ended: its running log captures are stopped"
            );
        }
    }
}

/// What a lab host's sessions hold, for the session ceiling (`listen::sessions`): a
/// device whose lease has not lapsed, or a running capture.
pub struct LabHolds<B> {
    lab: Arc<LabLeases>,
    backend: Arc<B>,
}

impl<B> LabHolds<B> {
    pub fn new(lab: Arc<LabLeases>, backend: Arc<B>) -> LabHolds<B> {
        LabHolds { lab, backend }
    }
}

impl<B: DeviceBackend> SessionHolds for LabHolds<B> {
    fn holds(&self, session: &str) -> bool {
        let Some(number) = self.lab.number_of(session) else {
            return false;
        };
        self.lab.holds_a_device(number) || self.backend.captures().lock().runs_for(number)
    }
}

/// What a refused stop of another session's capture carries as its `structuredContent`.
#[derive(Serialize)]
struct CaptureNotYours<'a> {
    error: &'static str,
    session_id: &'a str,
}

/// The tool error for a capture another MCP session started: it is not this session's
/// to stop or read.
pub fn not_yours_answer(session_id: &str, why: &dyn std::fmt::Display) -> CallToolResult {
    let text = format!("{why}; only the session that started it may stop or list it");
    let mut answer = CallToolResult::error(vec![ContentBlock::text(text)]);
    let record = CaptureNotYours {
        error: CAPTURE_NOT_YOURS,
        session_id,
    };
    answer.structured_content = serde_json::to_value(record).ok();
    answer
}
