//! A run that a newer approved run of the same crash made obsolete. The session's
//! sidecar names the evidence session of the crash's approved result; when that is
//! another run, started after this one, this run is not resumed: finishing it now and
//! approving it would silently replace a newer result with an older run's (issue 40: a
//! "high" approval replaced by a "medium" one through a stale resume hint). An approval
//! of an *older* run does not count: resuming the newer run is how a tester improves
//! on it.

use std::path::Path;

use chrono::{DateTime, FixedOffset};
use whittle_core::session::{parse_meta, resolve_session_dir, META_FILE};

use super::super::journal::JournalHeader;
use crate::sidecar::read_sidecar;

/// The evidence session of the approved run that supersedes the run of the evidence
/// session in `dir` (whose journal header is `header`), if one does.
pub fn superseded_by(dir: &Path, header: &JournalHeader) -> Option<String> {
    let this = dir.file_name()?.to_str()?;
    // `dir` is `<workspace>/sessions/<evidence>`, as resolved from the workspace.
    let workspace = dir.parent()?.parent()?;
    let session = resolve_session_dir(workspace, &header.original_session).ok()?;
    // An unreadable sidecar approves nothing: the approval step itself refuses it.
    let sidecar = read_sidecar(&session).ok()??.sidecar;
    let entry = sidecar.crashes.get(&header.crash_id)?;
    if entry.evidence_session == this {
        return None;
    }
    let started = created_at(dir).unwrap_or_else(|| header.started_at.clone());
    // The approved run's own start; when its evidence is gone, the approval's time
    // (later than its start) stands for it, so a doubt keeps this run from resuming.
    let approved_started = resolve_session_dir(workspace, &entry.evidence_session)
        .ok()
        .and_then(|approved| created_at(&approved))
        .unwrap_or_else(|| entry.approved_at.clone());
    // Evidence times have one-second steps: a tie is read as newer, so a doubt keeps
    // this run from resuming over an approval.
    not_earlier(&approved_started, &started).then(|| entry.evidence_session.clone())
}

fn created_at(dir: &Path) -> Option<String> {
    let file = std::fs::File::open(dir.join(META_FILE)).ok()?;
    Some(parse_meta(file).ok()?.created_at)
}

/// `a` is not before `b`: as times when both read as RFC 3339, else as text (both are
/// then written by the same report server, in one format).
fn not_earlier(a: &str, b: &str) -> bool {
    let time = |t: &str| DateTime::<FixedOffset>::parse_from_rfc3339(t).ok();
    match (time(a), time(b)) {
        (Some(a), Some(b)) => a >= b,
        _ => a >= b,
    }
}

#[cfg(test)]
mod tests {
    use super::not_earlier;

    #[test]
    fn times_compare_as_instants_not_as_text() {
        assert!(not_earlier(
            "2026-05-14T17:00:00+02:00",
            "2026-05-14T14:59:59Z"
        ));
        assert!(!not_earlier(
            "2026-05-14T16:00:00+02:00",
            "2026-05-14T14:00:01Z"
        ));
        assert!(
            not_earlier("2026-05-14T16:00:00+02:00", "2026-05-14T14:00:00Z"),
            "a tie"
        );
        assert!(not_earlier("b", "a"), "text when a time does not parse");
    }
}
