//! What a user can do about a run that cannot be approved as it is — one typed record,
//! so the window (a button), the terminal (a command line) and `whittle mcp` (a field an
//! agent passes on) offer the same way forward, each in its own words.

use serde::Serialize;

/// The way forward from a run that nothing here proves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum NextStep {
    /// Re-prove the run on a device here: a new run starts from its minimal path, and
    /// what it proves (every single deletion 0/3, the final path 3/3), sealed here, may
    /// be approved (`whittle minimize --reprove <evidence_session>`; the window's
    /// *Re-prove on this device*; `whittle mcp`'s `minimize` with `reprove`).
    Reprove { evidence_session: String },
}

/// Why nothing on this machine proves a run's evidence (so it is re-proven, not
/// approved as it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum NotProvenHere {
    /// Its journal was sealed by another Whittle installation (a CI runner, another
    /// machine or user) — or rewritten from its first line, which cannot be told apart.
    SealedElsewhere,
    /// It has no journal: made by a Whittle before journals, or the file was removed.
    NoJournal,
}

impl std::fmt::Display for NotProvenHere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotProvenHere::SealedElsewhere => "its journal was not sealed by this Whittle installation (a run made elsewhere: a CI runner, another machine or user — or a journal rewritten from its first line)",
            NotProvenHere::NoJournal => "it has no journal (made by a Whittle before journals, or the file was removed)",
        })
    }
}
