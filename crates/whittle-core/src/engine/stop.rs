//! Why a search ended before its algorithm did: the user cancelled, or the
//! infrastructure failed. Latched once (the first stop wins) and carried in the
//! [`super::SearchResult`], so no reader has to recognise a stop by its text.

use serde::{Deserialize, Serialize};

use super::FailureCause;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SearchStop {
    /// The user cancelled; the replay in flight was abandoned.
    Cancelled,
    /// The log capture was missing before a replay (no replay ran) or did not stop
    /// cleanly after the search: crashes may have gone unseen.
    CaptureFailed { cause: FailureCause },
    /// A replay failed in the infrastructure (MCP server, device, evidence write).
    RuntimeFailed { cause: FailureCause },
}
