//! `load_session`: every malformed-input case names the file and line, and never panics.

use crate::session_fixture;

use std::fs;

use serde_json::json;
use session_fixture::*;
use whittle_core::model::{CrashKind, StepResult};
use whittle_core::session::{load_session, SessionProblem, MAX_LINE_BYTES};

#[test]
fn loads_a_valid_session() {
    let (_ws, dir) = fresh(4);
    let session = load_session(&dir).unwrap();
    assert_eq!(session.dir, dir);
    assert_eq!(session.meta.session_id, "2026-05-14_100000_s");
    assert_eq!(session.meta.package.as_deref(), Some("com.example.shop"));
    assert_eq!(
        session.steps.iter().map(|s| s.index).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(session.steps[1].notes.contains("btn_2"));
    assert_eq!(session.crashes.len(), 1);
    assert_eq!(session.crashes[0].kind, CrashKind::Java);
    assert_eq!(session.crashes[0].repro_path, vec![1, 2, 3]);
    assert_eq!(session.step(3).unwrap().index, 3);
    assert!(session.step(0).is_none() && session.step(5).is_none());
    assert_eq!(session.crash("c1").unwrap().crash_id, "c1");
}

#[test]
fn missing_folder_and_missing_meta() {
    let ws = Workspace::new();
    let err = load_err(&ws.session_dir("nope"));
    assert!(
        matches!(err.problem, SessionProblem::FolderMissing),
        "{err}"
    );

    let (_ws, dir) = fresh(3);
    fs::remove_file(dir.join("meta.json")).unwrap();
    let err = load_err(&dir);
    assert_eq!(err.file, "meta.json");
    assert!(matches!(err.problem, SessionProblem::Missing));
    assert!(err.to_string().starts_with("meta.json: missing"), "{err}");
}

#[test]
fn invalid_meta_json_and_shape() {
    let (_ws, dir) = fresh(3);
    write(&dir, "meta.json", "{\"session_id\": \"x\",, }");
    let err = load_err(&dir);
    assert_eq!((err.file.as_str(), err.line), ("meta.json", None));
    assert!(
        matches!(err.problem, SessionProblem::InvalidJson { .. }),
        "{err}"
    );

    write(&dir, "meta.json", r#"{"name": "no id"}"#);
    let err = load_err(&dir);
    assert!(
        err.to_string().contains("missing field `session_id`"),
        "{err}"
    );

    fs::write(dir.join("meta.json"), b"{\"session_id\": \"\xff\xfe\"}").unwrap();
    assert!(matches!(load_err(&dir).problem, SessionProblem::NotUtf8));
}

#[test]
fn invalid_json_line_names_line_and_column() {
    let (_ws, dir) = fresh(3);
    let mut lines = steps_lines(3);
    lines[1] = r#"{"index": 2 "action": "tap"}"#.into();
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert_eq!((err.file.as_str(), err.line), ("steps.jsonl", Some(2)));
    let text = err.to_string();
    assert!(
        text.starts_with("steps.jsonl line 2: not valid JSON (expected `,`"),
        "{text}"
    );
    assert!(text.contains("column"), "{text}");
}

#[test]
fn non_utf8_line() {
    let (_ws, dir) = fresh(3);
    let mut bytes = jsonl(&steps_lines(2)).into_bytes();
    bytes.extend_from_slice(b"{\"index\": 3, \"action\": \"tap \xc3\x28\"}\n");
    fs::write(dir.join("steps.jsonl"), bytes).unwrap();
    let err = load_err(&dir);
    assert_eq!(err.line, Some(3));
    assert!(matches!(err.problem, SessionProblem::NotUtf8), "{err}");
}

#[test]
fn truncated_last_line() {
    let (_ws, dir) = fresh(3);
    let mut text = jsonl(&steps_lines(2));
    text.push_str(r#"{"index": 3, "action": "ta"#);
    write(&dir, "steps.jsonl", &text);
    let err = load_err(&dir);
    assert_eq!(err.line, Some(3));
    assert!(matches!(err.problem, SessionProblem::Truncated), "{err}");
    assert!(err.to_string().contains("truncated"), "{err}");
}

#[test]
fn last_line_without_newline_is_fine_when_complete() {
    let (_ws, dir) = fresh(3);
    let text = jsonl(&steps_lines(3));
    write(&dir, "steps.jsonl", text.trim_end());
    assert_eq!(load_session(&dir).unwrap().steps.len(), 3);
}

#[test]
fn blank_lines_are_skipped_but_counted() {
    let (_ws, dir) = fresh(3);
    let lines = steps_lines(3);
    write(
        &dir,
        "steps.jsonl",
        &format!("{}\n\n{}\n  \n{}\n", lines[0], lines[1], "{"),
    );
    let err = load_err(&dir);
    assert_eq!(err.line, Some(5), "{err}");
}

#[test]
fn duplicate_step_index() {
    let (_ws, dir) = fresh(3);
    let mut lines = steps_lines(3);
    lines.insert(2, step(2).to_string());
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert_eq!(err.line, Some(3));
    assert!(
        matches!(
            err.problem,
            SessionProblem::DuplicateStepIndex {
                index: 2,
                first_line: 2
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "steps.jsonl line 3: step 2 appears again (first on line 2)"
    );
}

#[test]
fn missing_indexes_say_which() {
    let (_ws, dir) = fresh(3);
    let lines = vec![
        step(1).to_string(),
        step(2).to_string(),
        step(5).to_string(),
    ];
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert_eq!(
        err.to_string(),
        "steps.jsonl line 3: steps 3–4 are missing (step 5 follows step 2)"
    );
    let lines = vec![step(2).to_string()];
    write(&dir, "steps.jsonl", &jsonl(&lines));
    assert_eq!(
        load_err(&dir).to_string(),
        "steps.jsonl line 1: step 1 is missing (step 2 follows step 0)"
    );
}

#[test]
fn index_zero_is_refused() {
    let (_ws, dir) = fresh(3);
    let mut zero = step(1);
    zero["index"] = json!(0);
    write(&dir, "steps.jsonl", &jsonl(&[zero.to_string()]));
    let err = load_err(&dir);
    assert!(
        matches!(err.problem, SessionProblem::StepIndexZero),
        "{err}"
    );
    assert_eq!(err.line, Some(1));
}

#[test]
fn out_of_order_indexes_say_which() {
    let (_ws, dir) = fresh(3);
    let lines = vec![
        step(1).to_string(),
        step(3).to_string(),
        step(2).to_string(),
    ];
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert_eq!(
        err.to_string(),
        "steps.jsonl line 3: step 2 comes after step 3 (steps must be numbered 1, 2, 3… in order)"
    );
}

#[test]
fn wrong_field_type_is_an_invalid_record() {
    let (_ws, dir) = fresh(3);
    let mut lines = steps_lines(3);
    lines[2] = r#"{"index": "three"}"#.into();
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert_eq!(err.line, Some(3));
    assert!(
        err.to_string()
            .starts_with("steps.jsonl line 3: not a valid step (invalid type"),
        "{err}"
    );
}

#[test]
fn oversized_line_is_refused_with_its_number() {
    let (_ws, dir) = fresh(3);
    let mut text = jsonl(&steps_lines(1));
    text.push_str(&format!(
        "{{\"index\": 2, \"action\": \"{}\"}}\n",
        "x".repeat(MAX_LINE_BYTES + 10)
    ));
    write(&dir, "steps.jsonl", &text);
    let err = load_err(&dir);
    assert_eq!(err.line, Some(2));
    assert!(
        matches!(err.problem, SessionProblem::LineTooLong { .. }),
        "{err}"
    );
}

#[test]
fn notes_object_is_kept_as_json_text_and_extra_fields_ignored() {
    let (_ws, dir) = fresh(3);
    let mut lines = steps_lines(2);
    lines.push(
        json!({
            "index": 3, "action": "tap", "result": "failed", "unknown_field": [1, 2],
            "notes": {"replay": {"action_type": "tap", "element_key": "com.x:id/b"}}
        })
        .to_string(),
    );
    write(&dir, "steps.jsonl", &jsonl(&lines));
    let session = load_session(&dir).unwrap();
    let notes: serde_json::Value = serde_json::from_str(&session.steps[2].notes).unwrap();
    assert_eq!(notes["replay"]["element_key"], "com.x:id/b");
    assert_eq!(session.steps[2].result, StepResult::Fail);
}

#[test]
fn screenshot_outside_the_session_is_refused() {
    for bad in [
        "/etc/passwd",
        "../other/shot.png",
        "screenshots/../../x.png",
        "",
    ] {
        let (_ws, dir) = fresh(3);
        let mut lines = steps_lines(3);
        lines[0] = json!({"index": 1, "action": "launch", "screenshot_src": bad}).to_string();
        write(&dir, "steps.jsonl", &jsonl(&lines));
        let err = load_err(&dir);
        assert!(
            matches!(err.problem, SessionProblem::ScreenshotOutsideSession { .. }),
            "{bad}: {err}"
        );
    }
    let (_ws, dir) = fresh(3);
    let mut lines = steps_lines(3);
    lines[0] =
        json!({"index": 1, "action": "launch", "screenshot_src": "screenshots/1.png"}).to_string();
    write(&dir, "steps.jsonl", &jsonl(&lines));
    assert_eq!(
        load_session(&dir).unwrap().steps[0]
            .screenshot_src
            .as_deref(),
        Some("screenshots/1.png")
    );
}

/// Fuzzer finding: an empty (or blank-only) `steps.jsonl`, as a session that has just
/// started has, panicked in the index-order check instead of loading with no steps.
#[test]
fn empty_or_blank_steps_file_is_a_session_without_steps() {
    for text in ["", "\n", "  \n\n"] {
        let ws = Workspace::new();
        let dir = ws.session("2026-05-14_100000_s", "2026-05-14T10:00:00Z", 0, &[]);
        write(&dir, "steps.jsonl", text);
        let session = load_session(&dir).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(session.steps.is_empty(), "{text:?}");
    }
}
