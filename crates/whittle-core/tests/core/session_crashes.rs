//! `load_session` on `crashes.jsonl`: kinds, ids and repro paths, refused with their
//! file and line, never a panic.

use crate::session_fixture;

use std::fs;

use serde_json::json;
use session_fixture::*;
use whittle_core::model::CrashKind;
use whittle_core::session::{load_session, SessionProblem};

#[test]
fn repro_path_naming_unknown_steps() {
    let (_ws, dir) = fresh(3);
    write(
        &dir,
        "crashes.jsonl",
        &jsonl(&[crash("c1", NPE, &[1, 2, 9]).to_string()]),
    );
    let err = load_err(&dir);
    assert_eq!(
        err.to_string(),
        "crashes.jsonl line 1: crash \"c1\" lists step 9 in repro_path, but steps.jsonl has no step 9"
    );
    write(
        &dir,
        "crashes.jsonl",
        &jsonl(&[crash("c1", NPE, &[1, 2, 2]).to_string()]),
    );
    assert!(matches!(
        load_err(&dir).problem,
        SessionProblem::ReproPathRepeatsStep { index: 2, .. }
    ));
}

#[test]
fn unknown_crash_kind() {
    let (_ws, dir) = fresh(3);
    let mut c = crash("c1", NPE, &[1, 2]);
    c["kind"] = json!("kernel\npanic");
    write(&dir, "crashes.jsonl", &jsonl(&[c.to_string()]));
    let err = load_err(&dir);
    assert_eq!(err.line, Some(1));
    let text = err.to_string();
    assert!(
        text.contains("unknown crash kind \"kernel\\npanic\""),
        "{text}"
    );
    assert!(
        !text.contains('\n'),
        "a hostile value must not forge lines: {text}"
    );
}

#[test]
fn duplicate_crash_id() {
    let (_ws, dir) = fresh(3);
    let lines = vec![
        crash("c1", NPE, &[1]).to_string(),
        crash("c1", ISE, &[1, 2]).to_string(),
    ];
    write(&dir, "crashes.jsonl", &jsonl(&lines));
    let err = load_err(&dir);
    assert!(
        matches!(
            err.problem,
            SessionProblem::DuplicateCrashId { first_line: 1, .. }
        ),
        "{err}"
    );
    assert_eq!(err.line, Some(2));
}

#[test]
fn empty_or_missing_crashes_mean_no_crashes() {
    let (_ws, dir) = fresh(3);
    write(&dir, "crashes.jsonl", "");
    assert!(load_session(&dir).unwrap().crashes.is_empty());
    write(&dir, "crashes.jsonl", "\n\n");
    assert!(load_session(&dir).unwrap().crashes.is_empty());
    fs::remove_file(dir.join("crashes.jsonl")).unwrap();
    assert!(load_session(&dir).unwrap().crashes.is_empty());
}

#[test]
fn crash_kinds_are_parsed() {
    let (_ws, dir) = fresh(3);
    let mut anr = crash("c2", "ANR in com.example.shop", &[1]);
    anr["kind"] = json!("ANR");
    let mut native = crash("c3", "signal 11 (SIGSEGV)", &[1, 3]);
    native["kind"] = json!("native");
    let lines = vec![
        crash("c1", NPE, &[1, 2]).to_string(),
        anr.to_string(),
        native.to_string(),
    ];
    write(&dir, "crashes.jsonl", &jsonl(&lines));
    let kinds: Vec<CrashKind> = load_session(&dir)
        .unwrap()
        .crashes
        .iter()
        .map(|c| c.kind)
        .collect();
    assert_eq!(
        kinds,
        vec![CrashKind::Java, CrashKind::Anr, CrashKind::Native]
    );
}
