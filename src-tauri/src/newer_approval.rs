//! What the window shows when an approval would replace a newer one: both entries,
//! exactly as the sidecar holds one and would hold the other, so the tester chooses
//! knowing what is lost (the rule: `whittle_service::api::is_newer`).

use serde::Serialize;
use whittle_service::api::NewerApproval;

/// The entry kept and the entry refused, keyed by their crash id as in the sidecar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct NewerApprovalView {
    pub crash_id: String,
    /// The approval the sidecar holds now.
    pub held_text: String,
    pub held_evidence_session: String,
    pub held_approved_at: String,
    /// What approving this run would write in its place.
    pub replacing_text: String,
}

impl NewerApprovalView {
    pub fn of(newer: &NewerApproval) -> NewerApprovalView {
        NewerApprovalView {
            crash_id: newer.crash_id.clone(),
            held_text: newer.keyed_text(&newer.held),
            held_evidence_session: newer.held.evidence_session.clone(),
            held_approved_at: newer.held.approved_at.clone(),
            replacing_text: newer.keyed_text(&newer.replacing),
        }
    }
}
