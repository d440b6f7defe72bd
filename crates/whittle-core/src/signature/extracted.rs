//! What one kind's parser (`java.rs`, `anr.rs`, `native.rs`) hands back to
//! `compute_signature`, which versions and hashes it.

use crate::model::CrashKind;

/// What one kind's parser found in a stack.
pub(super) struct Extracted {
    pub(super) kind: CrashKind,
    /// The canonical key without the version prefix; equal keys mean the same crash.
    pub(super) key_body: String,
    pub(super) top_frames: Vec<String>,
    pub(super) label: String,
    /// True when frames were found: then the key is specific enough to trust.
    pub(super) stable: bool,
}
