//! `whittle analyze` shows the approved results next to a session, and says so when an
//! entry's fingerprint came from an older analyzer (a re-minimize may not compare equal).

use crate::common;

use common::*;
use whittle_core::signature::FINGERPRINT_VERSION;

const SESSION: &str = "2026-05-14_160354_checkout-npe";

fn sidecar_entry(version: Option<u32>) -> serde_json::Value {
    let mut entry = serde_json::json!({
        "minimized_repro_path": [1, 10, 11, 12],
        "minimized_attempts": 9,
        "minimized_confidence": "high",
        "minimized_complete": true,
        "target_fingerprint": "a3f2b89c1d0e",
        "evidence_session": "2026-05-14_170000_minimize-checkout-npe",
        "approved_at": "2026-05-14T17:05:00Z",
        "engine_version": "0.1.0"
    });
    if let Some(v) = version {
        entry["fingerprint_version"] = v.into();
    }
    entry
}

fn analyze_with(entry: serde_json::Value) -> String {
    let env = Env::fast(&[]);
    let session = checkout_session(&env);
    let sidecar = serde_json::json!({"schema": 1, "crashes": {"c1": entry}});
    std::fs::write(session.join("crashes.minimized.json"), sidecar.to_string()).unwrap();
    let out = env.whittle(&["analyze", SESSION]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn an_entry_from_an_older_analyzer_is_shown_with_a_note() {
    let text = analyze_with(sidecar_entry(None));
    assert!(text.contains("1 distinct crash"), "{text}");
    assert!(text.contains("c1  path [1,10,11,12]  high"), "{text}");
    let note = text
        .lines()
        .find(|l| l.trim_start().starts_with("note:"))
        .unwrap_or_else(|| panic!("no note in\n{text}"));
    assert!(note.contains("crash c1"), "{note}");
    assert!(note.contains("older analyzer"), "{note}");
    assert!(note.contains("fingerprint version 1"), "{note}");
}

#[test]
fn a_current_entry_is_shown_without_a_note() {
    let text = analyze_with(sidecar_entry(Some(FINGERPRINT_VERSION)));
    assert!(text.contains("c1  path [1,10,11,12]  high"), "{text}");
    assert!(!text.contains("note:"), "{text}");
}
