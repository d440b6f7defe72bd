//! The Phase 1 loop over `repro_path`.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Step;
use crate::redact::Redacted;
use crate::sensitive::{
    looks_code_entry_key, looks_secret_key, looks_sensitive_input, looks_sensitive_text,
};
use crate::session::clip_untrusted;

use super::describe::describe;
use super::error::PlanError;
use super::key::{key_strategy, KeyStrategy};
use super::legacy::{
    ACTION_INPUT_TEXT, ACTION_LAUNCH, ACTION_LONG_PRESS, ACTION_PRESS_BUTTON, ACTION_RELAUNCH,
    ACTION_TAP,
};
use super::locator::Strategy;
use super::maestro_match::MaestroPattern;
use super::record::{GapField, InputValue, SelectorField, StepRecord};
use super::skip::SkipReason;
use super::types::{
    Coverage, Disposition, PlanNotice, PlannedStep, ReplayAction, ReplayPlan, ReplayStep,
};

pub fn build_plan(steps: &[Step], repro_path: &[u32]) -> Result<ReplayPlan, PlanError> {
    let by_index: BTreeMap<u32, &Step> = steps.iter().rev().map(|s| (s.index, s)).collect();
    let mut seen = BTreeSet::new();
    let mut plan = ReplayPlan {
        repro_path: repro_path.to_vec(),
        setup: Vec::new(),
        replayable: Vec::new(),
        steps: Vec::new(),
        launch_anchor: None,
        coverage: Coverage {
            non_launch: 0,
            replayable: 0,
        },
        warnings: Vec::new(),
        notices: Vec::new(),
    };
    let mut legacy_steps = 0u32;
    for &index in repro_path {
        if !seen.insert(index) {
            return Err(PlanError::DuplicateIndex { index });
        }
        let step = by_index
            .get(&index)
            .ok_or(PlanError::StepMissing { index })?;
        let record = StepRecord::read(step);
        let key = key_strategy(record.element_key.as_deref());
        let words = describe(
            record.action_type.as_deref(),
            &key,
            record.button.as_deref(),
        );
        if !record.new_format {
            legacy_steps += 1;
        }
        let disposition = match decide(step, &record, &key) {
            Decision::Setup => {
                plan.setup.push(index);
                if let (None, KeyStrategy::Found(anchor), true) =
                    (&plan.launch_anchor, &key, record.new_format)
                {
                    plan.launch_anchor = Some(anchor.clone());
                }
                Disposition::Setup
            }
            Decision::Replay(action) => {
                plan.replayable.push(ReplayStep { index, action });
                Disposition::Replayable
            }
            Decision::Skip(reason) => {
                plan.notice(PlanNotice::StepSkipped {
                    step: index,
                    reason: reason.clone(),
                });
                Disposition::Skipped { reason }
            }
        };
        plan.steps.push(PlannedStep {
            index,
            description: words.to_string(),
            words,
            disposition,
        });
    }
    plan.coverage = Coverage {
        non_launch: count(repro_path.len() - plan.setup.len()),
        replayable: count(plan.replayable.len()),
    };
    if legacy_steps > 0 {
        plan.notice(PlanNotice::LegacySteps {
            count: legacy_steps,
        });
    }
    if !plan.coverage.allows_live_run() {
        plan.notice(PlanNotice::LowCoverage {
            replayable: plan.coverage.replayable,
            non_launch: plan.coverage.non_launch,
        });
    }
    Ok(plan)
}

enum Decision {
    Setup,
    Replay(ReplayAction),
    Skip(SkipReason),
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The seed's order: redaction and sensitivity first, then launch, then the three
/// replayable forms.
fn decide(step: &Step, record: &StepRecord, key: &KeyStrategy) -> Decision {
    if record.input_withheld {
        return Decision::Skip(SkipReason::InputWithheld);
    }
    if record.input_redacted {
        return Decision::Skip(SkipReason::InputRedacted);
    }
    if is_sensitive(step, record) {
        return Decision::Skip(SkipReason::Sensitive);
    }
    // A tap on the key alone could land on another element the flow told apart.
    let element = record.element_key.as_deref().unwrap_or("");
    match &record.locator_gap {
        GapField::Absent => {}
        GapField::Read(gap) => return Decision::Skip(gap.reason(element)),
        GapField::Unreadable => {
            return Decision::Skip(SkipReason::AncestorsNeeded {
                element: clip_untrusted(element, 60),
                ancestors: String::new(),
            })
        }
    }
    match record.action_type.as_deref() {
        Some(ACTION_LAUNCH) => Decision::Setup,
        Some(ACTION_PRESS_BUTTON) => match record.button.as_deref().map(str::trim) {
            Some(b) if b.eq_ignore_ascii_case("BACK") => {
                Decision::Replay(ReplayAction::PressButton {
                    button: "BACK".to_owned(),
                })
            }
            other => Decision::Skip(SkipReason::UnsupportedButton {
                button: clip_untrusted(other.unwrap_or(""), 30),
            }),
        },
        Some(ACTION_RELAUNCH) => Decision::Replay(ReplayAction::Relaunch {
            stop_app: record.stop_app,
        }),
        Some(ACTION_TAP) => match with_strategy(key, record) {
            Ok(strategy) => Decision::Replay(ReplayAction::Tap { strategy }),
            Err(reason) => Decision::Skip(reason),
        },
        Some(ACTION_LONG_PRESS) => match with_strategy(key, record) {
            Ok(strategy) => Decision::Replay(ReplayAction::LongPress { strategy }),
            Err(reason) => Decision::Skip(reason),
        },
        Some(ACTION_INPUT_TEXT) => match (with_strategy(key, record), &record.input_value) {
            (Err(reason), _) => Decision::Skip(reason),
            (Ok(strategy), Some(InputValue::Text(value))) => {
                Decision::Replay(ReplayAction::InputText {
                    strategy,
                    value: Redacted::new(value.clone()),
                })
            }
            (Ok(_), None) if record.input_unknown.is_some() => {
                Decision::Skip(SkipReason::UnknownInput {
                    variable: clip_untrusted(record.input_unknown.as_deref().unwrap_or(""), 40),
                })
            }
            (Ok(_), _) => Decision::Skip(SkipReason::MissingInputValue),
        },
        other => Decision::Skip(SkipReason::UnsupportedAction {
            action_type: clip_untrusted(other.unwrap_or("").trim(), 30),
        }),
    }
}

/// The step's locator: its element key, matched as Maestro would when the step came
/// from a Maestro selector.
fn with_strategy(key: &KeyStrategy, record: &StepRecord) -> Result<Strategy, SkipReason> {
    match key {
        KeyStrategy::Found(strategy) => match &record.maestro {
            SelectorField::Absent => Ok(strategy.clone()),
            SelectorField::Unreadable => Err(SkipReason::SelectorNotEvaluable),
            SelectorField::Read(_) if MaestroPattern::compile(&strategy.value).is_err() => {
                Err(SkipReason::SelectorNotEvaluable)
            }
            SelectorField::Read(selector) => Ok(Strategy {
                maestro: Some(selector.clone()),
                ..strategy.clone()
            }),
        },
        KeyStrategy::Unstable { key_kind } => Err(SkipReason::UnstableKey {
            key_kind: key_kind.phrase().to_owned(),
        }),
        KeyStrategy::Absent => Err(SkipReason::NoElementKey),
    }
}

/// A step is sensitive when it types into a field that names a secret, when it types a
/// value shaped like the contact data its field names (see `looks_sensitive_input`), when it taps
/// a code keypad key (a tap on `pin_key_5` replays a digit of the PIN), or when any value
/// it recorded — the element's text, the typed value, the human action text — looks like
/// private data. A plain tap on a field or button named e.g. `email` or `product_card`
/// carries no value, so it stays replayable: skipping it would break the path for nothing.
fn is_sensitive(step: &Step, record: &StepRecord) -> bool {
    let key = record.element_key.as_deref().unwrap_or("");
    let key_is_private = if record.input_text().is_some() {
        looks_secret_key(key)
    } else {
        looks_code_entry_key(key)
    };
    key_is_private
        || looks_sensitive_text(key)
        || looks_sensitive_text(&step.action)
        || record
            .input_text()
            .is_some_and(|value| looks_sensitive_input(key, value))
}
