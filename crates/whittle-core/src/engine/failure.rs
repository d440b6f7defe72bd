//! Why the infrastructure, not the app under test, ended a replay: the typed cause an
//! attempt, a search and a run carry to every reader (docs/design.md §3, "How a run
//! ends"). `detail` is what a server or a device said: untrusted data, quoted when
//! shown and never parsed back.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FailureCause {
    /// An MCP tool call failed or answered nothing usable; `step` is the candidate
    /// step being replayed when it happened, if one was.
    Tool { step: Option<u32>, detail: String },
    /// The crashes of the replay could not be read back from the device's log.
    Drain { detail: String },
    /// The replay plan has no such step (a candidate from another plan).
    UnknownStep { step: u32 },
    /// The log capture of `device` was not running before a replay, or did not stop
    /// cleanly after the search.
    Capture {
        device: Option<String>,
        detail: String,
    },
    /// The attempt ran but could not be made durable (its journal line or its
    /// evidence step), so it cannot count.
    NotSaved { detail: String },
    /// A cause recorded as text by a Whittle that did not type causes yet.
    Recorded { detail: String },
}
