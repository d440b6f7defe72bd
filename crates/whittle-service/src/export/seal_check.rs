//! Whether this machine verified the run a bundle is made of (docs/SECURITY.md §12): its
//! journal's seal and its evidence against it. A bundle of a run sealed here says
//! nothing more; a run made elsewhere (or without a journal) is still exported — a CI
//! job's bundles are the product, and a reviewer may pass one on — but its ticket says
//! in so many words that its verdicts are another installation's record, and how to
//! re-prove it. A run whose files were changed since they were sealed is never exported
//! (the application API refuses it before a bundle is written).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SealCheck {
    /// Sealed by this installation; its result and steps are what its journal proves.
    Verified,
    /// Sealed by another installation (a CI runner, another machine or user): not
    /// verified here.
    SealedElsewhere,
    /// No journal (a Whittle before journals, or the file removed): not verified.
    NoJournal,
    /// A recording (`import --record`): one replay of a flow, kept without a journal.
    Recording,
}

impl SealCheck {
    /// The ticket's warning line, when the run was not verified here; `None` otherwise.
    pub(crate) fn warning(self, evidence_session: &str) -> Option<String> {
        let why = match self {
            SealCheck::Verified | SealCheck::Recording => return None,
            SealCheck::SealedElsewhere => {
                "it was made by another Whittle installation (a CI runner, another machine or user)"
            }
            SealCheck::NoJournal => "its evidence has no journal",
        };
        Some(format!(
            "**Not verified on this machine:** {why}, so its verdicts below are that run's own record. \
             Re-prove it on a device with `whittle minimize --reprove {evidence_session}` before relying on it."
        ))
    }
}
