//! Approval: writing a finished run's result into its original session's sidecar
//! (`crashes.minimized.json`), only on the user's say-so. The entry is stamped once,
//! when the result is first shown, and that very entry is both the preview the user
//! reads and what approval writes (docs/design.md §3) — never a second one stamped at
//! another moment. An approval never silently replaces a newer one
//! ([`crate::result::is_newer`]): that takes the user's explicit [`Replace::Newer`].

use std::path::{Path, PathBuf};

use serde::Serialize;
use whittle_core::model::MinimizedEntry;

use crate::result::{is_newer, sidecar_entry, ApproveError, NewerApproval, PendingResult};
use crate::run::RunOutcome;
use crate::sidecar::{write_sidecar_entry_unless, SidecarWrite};

/// A result that may be written back, with the entry approval will write.
#[derive(Debug, Clone, PartialEq)]
pub struct Approvable {
    pub pending: PendingResult,
    pub entry: MinimizedEntry,
    /// When the run started, as its sealed journal says (a run read from its files, or
    /// one this process watched: [`Approvable::of_outcome`]). An approval of another run
    /// made after it is newer, and is replaced only on the user's explicit say-so, one
    /// rule for every front end.
    pub run_started_at: Option<String>,
}

impl Approvable {
    /// The entry a run that just ended would write, stamped now, told against the
    /// approvals made since the run started (for a resumed run, since its first start);
    /// `None` when it may not be written back.
    pub fn of_outcome(outcome: &RunOutcome) -> Option<Approvable> {
        let mut approvable = Approvable::stamp(outcome.pending.clone()?)?;
        approvable.run_started_at = outcome.started_at.clone();
        Some(approvable)
    }

    /// The entry for `pending`, stamped now; `None` when it may not be written back.
    pub fn stamp(pending: PendingResult) -> Option<Approvable> {
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let entry = sidecar_entry(&pending, now).ok()?;
        Some(Approvable {
            pending,
            entry,
            run_started_at: None,
        })
    }

    /// The moment a newer approval is told by ([`is_newer`]): the run's start; for a
    /// result whose run's start is unknown, the moment it was first shown (its entry's
    /// stamp).
    fn reference_time(&self) -> &str {
        self.run_started_at
            .as_deref()
            .unwrap_or(&self.entry.approved_at)
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

/// Whether an approval may replace a newer one the sidecar holds for its crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Replace {
    /// A newer approval stays, and the approval is refused ([`ApproveError::Newer`]).
    #[default]
    OnlyOlder,
    /// The user saw both entries and chose this one (`--replace`, the window's confirm).
    Newer,
}

impl Replace {
    /// `Newer` once the user confirmed replacing a newer approval (`--replace`, the
    /// window's yes), else `OnlyOlder`.
    pub fn confirmed(confirmed: bool) -> Replace {
        if confirmed {
            Replace::Newer
        } else {
            Replace::OnlyOlder
        }
    }
}

/// Writes `approvable`'s entry, unchanged, into the original session's sidecar —
/// unless the sidecar holds a newer approval of the crash and `replace` does not allow
/// replacing it: then nothing is written and the refusal carries both entries.
pub fn approve(
    approvable: &Approvable,
    replace: Replace,
) -> Result<(PathBuf, Approval), ApproveError> {
    let pending = &approvable.pending;
    let written = write_sidecar_entry_unless(
        Path::new(&pending.original_session_dir),
        &pending.crash_id,
        approvable.entry.clone(),
        |held| {
            replace == Replace::OnlyOlder
                && is_newer(held, &pending.evidence_session, approvable.reference_time())
        },
    )?;
    let path = match written {
        SidecarWrite::Written(path) => path,
        SidecarWrite::Kept { held, .. } => {
            return Err(ApproveError::Newer(Box::new(NewerApproval {
                crash_id: pending.crash_id.clone(),
                held,
                replacing: approvable.entry.clone(),
            })))
        }
    };
    let approval = Approval {
        sidecar_path: path.display().to_string(),
        written_text: approvable.text(),
    };
    Ok((path, approval))
}
