//! Whether the run a bundle is made of is what its sealed journal proves, for an export
//! (`whittle export`, the window's Export and *Copy as Markdown*, `whittle mcp`'s
//! `export` and `ticket_markdown`). The same checks an approval makes of the journal —
//! every line's seal, every step against it, and `result.json`'s fields against what
//! replaying it gives (`evidence_check.rs`) — but what they find decides less: a run
//! sealed elsewhere (or without a journal) is exported marked not verified here
//! (`export/seal_check.rs`); a run whose files were changed since they were sealed is not
//! exported at all, so a forged path never reaches a ticket that approval refuses.

use std::path::Path;

use whittle_core::plan::build_plan;
use whittle_core::run_end::RunEnd;
use whittle_core::session::{load_session, resolve_session_dir};

use super::evidence_check::Inconsistency;
use super::result_against_journal::{result_against_journal, result_line, ChangedResult};
use crate::export::SealCheck;
use crate::result::{PendingResult, ResultPurpose};
use crate::run::{read_sealed_evidence, replay_sealed, SealedRunError};

/// How the run of the evidence session in `dir` (of `workspace`), whose `result.json`
/// reads `result`, stands against its sealed journal; an error when its files were
/// changed since they were sealed.
pub fn seal_check(
    workspace: &Path,
    dir: &Path,
    result: &PendingResult,
) -> Result<SealCheck, Inconsistency> {
    if result.purpose == ResultPurpose::Record {
        return Ok(SealCheck::Recording);
    }
    let contents = match read_sealed_evidence(dir) {
        Ok(contents) => contents,
        Err(SealedRunError::NotSealedHere) => return Ok(SealCheck::SealedElsewhere),
        Err(SealedRunError::NoJournal) => return Ok(SealCheck::NoJournal),
        Err(e) => return Err(e.into()),
    };
    let sealed = match replay_sealed(contents) {
        Ok(sealed) => sealed,
        // A run stopped before its search's end (cancelled, a capture or device
        // failure): its result may only say so.
        Err(SealedRunError::Unfinished) if stopped(&result.end) => return Ok(SealCheck::Verified),
        Err(SealedRunError::Unfinished) => {
            return Err(ChangedResult {
                field: "status".into(),
                line: result_line(dir, "status"),
                found: format!("\"{}\"", result.end.status()),
                proven: "a run its journal does not record to its end".into(),
            }
            .into())
        }
        Err(e) => return Err(e.into()),
    };
    let header = &sealed.header;
    let session_dir = resolve_session_dir(workspace, &header.original_session)
        .map_err(Inconsistency::OriginalNotFound)?;
    let session = load_session(&session_dir).map_err(Inconsistency::OriginalUnreadable)?;
    let crash = session
        .crash(&header.crash_id)
        .ok_or(Inconsistency::CrashMissing)?;
    let plan =
        build_plan(&session.steps, &crash.repro_path).map_err(Inconsistency::PlanUnavailable)?;
    result_against_journal(dir, result, &sealed, &plan)?;
    Ok(SealCheck::Verified)
}

fn stopped(end: &RunEnd) -> bool {
    matches!(
        end,
        RunEnd::Cancelled | RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. }
    )
}
