//! Approval: writing a finished run's result into its original session's sidecar
//! (`crashes.minimized.json`), only on the user's say-so. The entry is stamped once,
//! when the result is first shown, and that very entry is both the preview the user
//! reads and what approval writes (docs/design.md §3) — never a second one stamped at
//! another moment.

use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::model::MinimizedEntry;

use crate::result::{sidecar_entry, ApproveError, PendingResult};
use crate::sidecar::write_sidecar_entry;

/// A result that may be written back, with the entry approval will write.
#[derive(Debug, Clone, PartialEq)]
pub struct Approvable {
    pub pending: PendingResult,
    pub entry: MinimizedEntry,
}

impl Approvable {
    /// The entry for `pending`, stamped now; `None` when it may not be written back.
    pub fn stamp(pending: PendingResult) -> Option<Approvable> {
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let entry = sidecar_entry(&pending, now).ok()?;
        Some(Approvable { pending, entry })
    }

    /// The entry keyed by its crash id, as the sidecar will hold it: the preview, and
    /// the text an approval reports it wrote.
    pub fn text(&self) -> String {
        let keyed = serde_json::json!({ self.pending.crash_id.clone(): &self.entry });
        serde_json::to_string_pretty(&keyed).unwrap_or_default()
    }
}

/// What an approval wrote, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Approval {
    pub sidecar_path: String,
    /// The entry exactly as written, keyed by its crash id.
    pub written_text: String,
}

/// Writes `approvable`'s entry, unchanged, into the original session's sidecar.
pub fn approve(approvable: &Approvable) -> Result<(PathBuf, Approval), ApproveError> {
    let pending = &approvable.pending;
    let path = write_sidecar_entry(
        Path::new(&pending.original_session_dir),
        &pending.crash_id,
        approvable.entry.clone(),
    )?;
    let approval = Approval {
        sidecar_path: path.display().to_string(),
        written_text: approvable.text(),
    };
    Ok((path, approval))
}
