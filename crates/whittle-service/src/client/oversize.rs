//! Answers too long for the transport, by the request they answered: filled where the
//! transport is watched (a stdio server's output, `answer_meter`), read by the call
//! whose answer it was (`connection`), so that call names the size instead of timing out.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::RequestId;

/// The longest message rmcp's stdio transport accepts, its newline included
/// (`AsyncRwTransport`'s default, which the transport is built with).
pub(crate) const MESSAGE_LIMIT: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// One connection's oversized answers not yet claimed by their call.
#[derive(Debug, Clone, Default)]
pub(crate) struct OversizeLog(Arc<Mutex<HashMap<RequestId, u64>>>);

impl OversizeLog {
    /// No await happens under this lock, and a panicking holder leaves only sizes.
    fn entries(&self) -> MutexGuard<'_, HashMap<RequestId, u64>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The answer to `id` was `bytes` long and was dropped.
    pub(crate) fn note(&self, id: RequestId, bytes: u64) {
        self.entries().insert(id, bytes);
    }

    /// The size of the dropped answer to `id`, once.
    pub(crate) fn take(&self, id: &RequestId) -> Option<u64> {
        self.entries().remove(id)
    }
}
