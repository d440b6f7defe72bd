//! `result.json` against what the run's sealed journal proves ([`SealedRun`]): every
//! field of the result that the journal decides — the crash, the path, the counts, the
//! flags, the confidence, the proof — must be what replaying the journal gives. The
//! first field that is not is named with its line in the file, so an edited result (a
//! minimal path shortened, "medium" made "high") is refused where it was edited.

use std::io::Read;
use std::path::Path;

use serde_json::{Map, Value};
use whittle_core::assessment::{assess, minimal_path, IdentityQuality};
use whittle_core::plan::ReplayPlan;

use crate::result::{field_line, PendingResult, Rating, RESULT_FILE};
use crate::run::SealedRun;

/// A `result.json` larger than this is not read for line numbers (a real one is a few KB).
const MAX_RESULT_BYTES: u64 = 4 * 1024 * 1024;
/// How much of each value a refusal quotes.
const MAX_QUOTED: usize = 120;

/// A field of `result.json` that differs from the sealed journal's run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("result.json{} ({field}) is not what the run's sealed journal records: {found} there, {proven} by the journal", .line.map(|l| format!(" line {l}")).unwrap_or_default())]
pub struct ChangedResult {
    pub field: String,
    /// Its line in the file; `None` when the file no longer has the field.
    pub line: Option<usize>,
    /// The value in the file and the value the journal gives, as JSON (shortened).
    pub found: String,
    pub proven: String,
}

/// The first field of `result` (read from `evidence_dir`) that is not what `sealed`
/// proves, for a run of `plan` (the crash's plan built from the original session now).
pub fn result_against_journal(
    evidence_dir: &Path,
    result: &PendingResult,
    sealed: &SealedRun,
    plan: &ReplayPlan,
) -> Result<(), ChangedResult> {
    let found = match serde_json::to_value(result) {
        Ok(Value::Object(found)) => found,
        _ => Map::new(),
    };
    for (field, proven) in proven_fields(sealed, plan) {
        let there = found.get(&field).cloned().unwrap_or(Value::Null);
        if there != proven {
            return Err(ChangedResult {
                line: result_line(evidence_dir, &field),
                found: quoted(&there),
                proven: quoted(&proven),
                field,
            });
        }
    }
    Ok(())
}

/// Every field the journal decides, with the value it gives, in the file's order (the
/// first difference named is the first a reader meets).
fn proven_fields(sealed: &SealedRun, plan: &ReplayPlan) -> Vec<(String, Value)> {
    let header = &sealed.header;
    let search = &sealed.search;
    // The run judged the crash's identity from its target, as `prepare` does.
    let reliable = header.target.is_reliable();
    let assessment = assess(
        search,
        IdentityQuality {
            fingerprint_reliable: reliable,
            signature_degraded: !reliable,
        },
    );
    let minimal = if search.baseline_reproduced {
        minimal_path(&plan.repro_path, &plan.setup, &search.current)
    } else {
        Vec::new()
    };
    let mut fields = Vec::new();
    let mut put = |value: Value| {
        if let Value::Object(map) = value {
            fields.extend(map);
        }
    };
    put(serde_json::to_value(&assessment.end).unwrap_or_default());
    put(serde_json::json!({ "original_session": header.original_session }));
    put(serde_json::json!({ "crash_id": header.crash_id }));
    put(serde_json::json!({ "original_path": plan.repro_path }));
    put(serde_json::json!({ "minimal_path": minimal }));
    put(serde_json::json!({ "attempts": search.attempts }));
    put(serde_json::json!({ "max_replays": search.max_replays }));
    put(serde_json::to_value(Rating::of(&assessment)).unwrap_or_default());
    put(serde_json::json!({ "converged": assessment.converged }));
    put(serde_json::to_value(search.flags).unwrap_or_default());
    put(serde_json::json!({ "write_back_allowed": assessment.write_back_allowed }));
    put(serde_json::json!({ "proof": search.proof }));
    put(serde_json::json!({ "final_outcomes": search.final_outcomes() }));
    put(serde_json::json!({ "target": header.target }));
    put(serde_json::json!({ "target_fingerprint": header.target.fingerprint() }));
    put(serde_json::json!({ "app_version": header.app_version }));
    put(serde_json::json!({ "reproves": header.reproves }));
    fields
}

/// The line of `field` in the evidence's `result.json`, when it can be told.
pub fn result_line(evidence_dir: &Path, field: &str) -> Option<usize> {
    field_line(&read_capped(&evidence_dir.join(RESULT_FILE)), field)
}

fn quoted(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(MAX_QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The file's text for line numbers; empty when it cannot be read (the refusal then
/// names the field without a line).
fn read_capped(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(MAX_RESULT_BYTES).read_to_string(&mut text);
    }
    text
}
