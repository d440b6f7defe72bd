//! An approval never silently replaces a newer one. Evidence folders travel (a
//! colleague's run, a CI artifact), so the run being approved may well be older than
//! the one whose entry `crashes.minimized.json` already holds for the same crash.

use chrono::{DateTime, Utc};
use whittle_core::model::MinimizedEntry;

/// The entry the sidecar holds for a crash, newer than the run being approved (see
/// [`is_newer`]): kept, and shown beside the entry that would have replaced it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewerApproval {
    pub crash_id: String,
    /// The entry in the sidecar now.
    pub held: MinimizedEntry,
    /// The entry approving would have written.
    pub replacing: MinimizedEntry,
}

impl NewerApproval {
    /// An entry keyed by its crash id, as the sidecar holds it (how both are shown).
    pub fn keyed_text(&self, entry: &MinimizedEntry) -> String {
        let keyed = serde_json::json!({ self.crash_id.clone(): entry });
        serde_json::to_string_pretty(&keyed).unwrap_or_default()
    }
}

/// Whether `held`, the sidecar's entry for the crash, is newer than the run of
/// `evidence_session` that started at `run_started_at` (RFC 3339).
///
/// The rule, from the entry's own fields (a sidecar keeps no more): `held` is newer when
/// it comes from **another evidence session** and its `approved_at` is **later than the
/// moment the run being approved started**. An entry is only ever approved after its
/// own run, so such an entry either comes from a run that started later, or was chosen
/// by someone while or after this run went on — either way with at least this run's
/// knowledge, and replacing it needs an explicit yes. Re-approving the entry's own
/// evidence session is never a replacement of a newer one. A time that does not read
/// as RFC 3339 counts as newer: when in doubt, ask.
pub fn is_newer(held: &MinimizedEntry, evidence_session: &str, run_started_at: &str) -> bool {
    if held.evidence_session == evidence_session {
        return false;
    }
    let time = |text: &str| DateTime::parse_from_rfc3339(text).map(|t| t.with_timezone(&Utc));
    match (time(&held.approved_at), time(run_started_at)) {
        (Ok(approved), Ok(started)) => approved > started,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::is_newer;
    use whittle_core::model::{Confidence, MinimizedEntry};

    fn held(evidence: &str, approved_at: &str) -> MinimizedEntry {
        MinimizedEntry {
            minimized_repro_path: vec![1, 10, 12],
            minimized_attempts: 9,
            minimized_confidence: Confidence::High,
            minimized_complete: true,
            target_fingerprint: None,
            evidence_session: evidence.into(),
            approved_at: approved_at.into(),
            engine_version: "0.1.0".into(),
            fingerprint_version: 2,
        }
    }

    #[test]
    fn an_entry_approved_after_the_run_started_is_newer_unless_it_is_the_same_run() {
        let started = "2026-06-01T09:00:00Z";
        assert!(is_newer(&held("b", "2026-06-01T09:00:01Z"), "a", started));
        // Times in other zones compare as instants.
        assert!(is_newer(
            &held("b", "2026-06-01T11:30:00+02:00"),
            "a",
            started
        ));
        assert!(!is_newer(
            &held("b", "2026-06-01T10:59:59+02:00"),
            "a",
            started
        ));
        assert!(!is_newer(&held("b", started), "a", started));
        assert!(!is_newer(&held("a", "2026-07-01T00:00:00Z"), "a", started));
        // When in doubt, ask.
        assert!(is_newer(&held("b", "yesterday"), "a", started));
        assert!(is_newer(&held("b", "2026-05-01T00:00:00Z"), "a", "?"));
    }
}
