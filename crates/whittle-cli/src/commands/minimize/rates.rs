//! What `whittle minimize --json` adds for issue 21: how often the final path, each
//! single deletion and the crash overall reproduced, with Wilson intervals. Fields are
//! only added; the existing ones keep their bytes.

use serde_json::{json, Map, Value};
use whittle_core::rate::{Rate, DEFAULT_CONFIDENCE};
use whittle_service::api::RunOutcome;

/// Adds `final_rate`, `deletion_rates` and `crash_rate` when the run replayed live.
pub fn add_json_fields(outcome: &RunOutcome, map: &mut Map<String, Value>) {
    let Some(search) = &outcome.search else {
        return;
    };
    let confidence = search
        .statistical
        .map_or(DEFAULT_CONFIDENCE, |proof| proof.confidence());
    let rate = |r: Rate| serde_json::to_value(r).unwrap_or(Value::Null);
    map.insert("final_rate".into(), rate(search.final_rate(confidence)));
    let deletions: Vec<Value> = search
        .proof
        .iter()
        .map(|row| {
            json!({
                "removed_step": row.removed_step,
                "rate": rate(Rate::of(&row.outcomes, confidence)),
            })
        })
        .collect();
    map.insert("deletion_rates".into(), deletions.into());
    map.insert("crash_rate".into(), rate(search.crash_rate(confidence)));
}
