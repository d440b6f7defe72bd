//! `suggest_minimal_path`: a static guess, made without replaying anything. It keeps the
//! launch steps, the step where the crash surfaced, and earlier steps that name the screen
//! the crash happened on; everything else is assumed unnecessary. Confidence is always low.
use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use whittle_contract::analyzer::StaticSuggestion;
use whittle_core::model::{Confidence, Crash};
use whittle_core::session::Session;
use whittle_core::signature::compute_signature;

/// Class-like names of screens: `CheckoutActivity`, `CartFragment`, `LoginScreen`...
static SCREEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[A-Z][A-Za-z0-9]*(?:Activity|Fragment|Screen|Page|Dialog|View)\b")
        .expect("screen regex")
});

pub fn suggest(session: &Session, crash: &Crash) -> StaticSuggestion {
    let path: Vec<u32> = crash.repro_path.clone();
    let trigger = if path.contains(&crash.step_index) {
        Some(crash.step_index)
    } else {
        path.last().copied()
    };
    let Some(trigger) = trigger else {
        return StaticSuggestion {
            path: Vec::new(),
            confidence: Confidence::Low,
            rationale: "Static guess: the crash has an empty repro path, nothing to keep."
                .to_string(),
        };
    };

    let mut screens: BTreeSet<String> = BTreeSet::new();
    let sig = compute_signature(&crash.stack, Some(crash.kind));
    let mut evidence = sig.top_frames.join(" ");
    evidence.push(' ');
    evidence.push_str(&sig.label);
    if let Some(step) = session.step(trigger) {
        evidence.push(' ');
        evidence.push_str(&step.notes);
    }
    for m in SCREEN.find_iter(&evidence) {
        screens.insert(m.as_str().to_string());
    }

    let mut kept = BTreeSet::new();
    let mut launches = 0;
    let mut by_screen = 0;
    for &index in path.iter().filter(|&&i| i <= trigger) {
        let Some(step) = session.step(index) else {
            continue;
        };
        if index == trigger {
            kept.insert(index);
        } else if step.action.eq_ignore_ascii_case("launch") {
            kept.insert(index);
            launches += 1;
        } else if screens
            .iter()
            .any(|s| step.notes.contains(s.as_str()) || step.action.contains(s.as_str()))
        {
            kept.insert(index);
            by_screen += 1;
        }
    }
    let screens_text = if screens.is_empty() {
        "no screen name found in the crash".to_string()
    } else {
        format!(
            "screens named by the crash: {}",
            screens.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    StaticSuggestion {
        path: kept.into_iter().collect(),
        confidence: Confidence::Low,
        rationale: format!(
            "Static guess, not replayed: kept {launches} launch step(s), the trigger step {trigger} \
             and {by_screen} earlier step(s) mentioning the crash's screen ({screens_text}). \
             Confirm with a live minimize run."
        ),
    }
}
