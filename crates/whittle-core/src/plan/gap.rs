//! What an imported flow uses to tell its element apart that Whittle's locators cannot
//! express yet: the element's position in a list, or its ancestors. A step carrying one
//! (`notes.replay.locator_gap`) is kept and skipped with it, never replayed on its
//! element key alone, which could land on another element with the same key.

use serde::{Deserialize, Serialize};

use crate::session::clip_untrusted;

use super::skip::SkipReason;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LocatorGap {
    /// The item at `position` (0-based, as the flow counts) of `list`.
    ListPosition { position: u32, list: String },
    /// Its ancestors, nearest first, as words (`cv_cast in rv_cast`).
    Ancestors { ancestors: String },
}

impl LocatorGap {
    /// Why the step whose element key is `element` is skipped. Read from a session
    /// file, so every string is clipped again.
    pub(crate) fn reason(&self, element: &str) -> SkipReason {
        let element = clip_untrusted(element, 60);
        match self {
            LocatorGap::ListPosition { position, list } => SkipReason::ListPosition {
                element,
                position: *position,
                list: clip_untrusted(list, 60),
            },
            LocatorGap::Ancestors { ancestors } => SkipReason::AncestorsNeeded {
                element,
                ancestors: clip_untrusted(ancestors, 120),
            },
        }
    }
}
