//! Issue 44: every session imported from the public corpus (tests/fixtures/robo and
//! tests/fixtures/maestro, see SOURCES.md) stores no typed value that a fact of its field
//! marks private. The facts are read here from the files themselves, not from the
//! importer: a Robo descriptor's `inputType`, `hintText`, `contentDescription`,
//! `className` and id, and its two nearest ancestors' ids, descriptions and hints; a
//! Maestro field's selector (the element tapped before typing) and the variable typed;
//! and, for both, the user's `--private` values.

use std::path::PathBuf;

use serde_json::Value;
use whittle_core::import::{parse_flow, ElementKey, FlowFormat, ImportedAction, ImportedFlow};
use whittle_core::model::Step;
use whittle_core::sensitive::looks_secret_key;

fn corpus(format: &str) -> Vec<(String, Vec<u8>)> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/{format}"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The session the import writes, and the text of its typing steps (their action words
/// and replay fields: what a typed value would be stored in).
fn stored(flow: &ImportedFlow) -> (Vec<Step>, String) {
    let steps: Vec<Step> = flow
        .steps
        .iter()
        .zip(1..)
        .map(|(s, i)| s.to_step(i, "2026-05-14T16:03:54Z", flow.format))
        .collect();
    let text = steps
        .iter()
        .filter_map(|s| {
            let notes: Value = serde_json::from_str(&s.notes).ok()?;
            let replay = &notes["replay"];
            (replay["action_type"] == "input_text").then(|| format!("{}\n{replay}\n", s.action))
        })
        .collect();
    (steps, text)
}

/// Every value the session stores for replay.
fn stored_values(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .filter_map(|s| {
            let notes: Value = serde_json::from_str(&s.notes).ok()?;
            notes["replay"]["input_value"].as_str().map(str::to_owned)
        })
        .collect()
}

/// `inputType` bits of a password field (Android's `InputType`).
fn is_password_input_type(value: &Value) -> bool {
    let Some(bits) = value.as_u64() else {
        return value.as_str().is_some_and(|s| s.contains("Password"));
    };
    let (class, variation) = (bits & 0xf, bits & 0xff0);
    (class == 1 && [0x80, 0x90, 0xe0].contains(&variation)) || (class == 2 && variation == 0x10)
}

/// What each `VIEW_TEXT_CHANGED` of a Robo script types, and whether a fact of its field
/// marks it private.
fn robo_typed(json: &Value, out: &mut Vec<(String, bool)>) {
    match json {
        Value::Array(items) => items.iter().for_each(|i| robo_typed(i, out)),
        Value::Object(map) => {
            if map.get("eventType").and_then(Value::as_str) == Some("VIEW_TEXT_CHANGED") {
                let text =
                    |d: &Value, k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                let descriptors = map
                    .get("elementDescriptors")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let mut private = false;
                if let Some(target) = descriptors.first() {
                    private |= target.get("inputType").is_some_and(is_password_input_type);
                    for key in ["hintText", "contentDescription", "className", "resourceId"] {
                        private |= looks_secret_key(&text(target, key));
                    }
                }
                for ancestor in descriptors.iter().skip(1).take(2) {
                    for key in ["hintText", "contentDescription", "resourceId"] {
                        private |= looks_secret_key(&text(ancestor, key));
                    }
                }
                out.push((
                    text(&Value::Object(map.clone()), "replacementText"),
                    private,
                ));
            }
            map.values().for_each(|v| robo_typed(v, out));
        }
        _ => {}
    }
}

/// Each value a Maestro flow types, with whether its field's selector (the element
/// tapped before it) or its variable names a secret.
fn maestro_typed(flow: &ImportedFlow) -> Vec<(String, bool)> {
    let mut field = String::new();
    let mut typed = Vec::new();
    for step in &flow.steps {
        match &step.action {
            ImportedAction::Tap { element } | ImportedAction::LongPress { element } => {
                field = match element {
                    ElementKey::Maestro { pattern, .. } => pattern.clone(),
                    other => other.to_key(),
                };
            }
            ImportedAction::InputText {
                value: Some(value), ..
            } => {
                let source = step.source.as_deref().unwrap_or("");
                let variable = source
                    .split("${")
                    .skip(1)
                    .any(|rest| looks_secret_key(rest.split('}').next().unwrap_or("")));
                typed.push((value.clone(), variable || looks_secret_key(&field)));
            }
            _ => {}
        }
    }
    typed
}

/// Asserts what a session of `file` stores: no value its facts mark private, and none
/// at all once every typed value is marked `--private`.
fn check(file: &str, mut flow: ImportedFlow, typed: &[(String, bool)]) -> usize {
    let (steps, text) = stored(&flow);
    let values = stored_values(&steps);
    for (value, private) in typed {
        if *private && !value.is_empty() {
            assert!(
                !text.contains(value.as_str()),
                "{file}: {value:?} stored:\n{text}"
            );
            assert!(!values.contains(value), "{file}: {value:?}");
        }
    }
    let all: Vec<String> = typed
        .iter()
        .map(|(v, _)| v.clone())
        .filter(|v| !v.is_empty())
        .collect();
    flow.mark_private(&all);
    let (steps, _) = stored(&flow);
    assert!(
        stored_values(&steps).is_empty(),
        "{file}: --private ignored"
    );
    typed.iter().filter(|(_, p)| *p).count()
}

#[test]
fn no_session_of_the_corpus_stores_a_value_a_fact_marks_private() {
    let mut sessions = 0;
    let mut private_by_fact = 0;
    for (file, bytes) in corpus("robo") {
        let Ok(flow) = parse_flow(FlowFormat::Robo, &file, &bytes) else {
            continue;
        };
        // The facts, from the JSON itself: comment lines and an execution header (the
        // object before the list) left out.
        let text = String::from_utf8(bytes.clone()).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('#'))
            .collect();
        let start = match lines.first() {
            Some(first) if first.trim_start().starts_with("\"roboscript\"") => {
                lines.iter().position(|l| l.starts_with('[')).unwrap()
            }
            _ => 0,
        };
        let mut typed = Vec::new();
        if let Ok(json) = serde_json::from_str::<Value>(&lines[start..].join("\n")) {
            robo_typed(&json, &mut typed);
        }
        private_by_fact += check(&file, flow, &typed);
        sessions += 1;
    }
    for (file, bytes) in corpus("maestro") {
        let Ok(flow) = parse_flow(FlowFormat::Maestro, &file, &bytes) else {
            continue;
        };
        let typed = maestro_typed(&flow);
        private_by_fact += check(&file, flow, &typed);
        sessions += 1;
    }
    // The corpus holds both formats' real files, and private fields among them: the
    // sign-in scripts' password, the Turkish "Şifre" field, the Maestro "Password" taps.
    assert!(sessions >= 55, "{sessions}");
    assert!(private_by_fact >= 6, "{private_by_fact}");
}
