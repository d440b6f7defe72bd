//! Symbolic links out of the workspace: a session folder that is a link elsewhere, and a
//! file inside a session that is a link to a file outside it, are refused with a message
//! that says so (and the outside file's content is never read into an error).
#![cfg(unix)]

use crate::session_fixture;

use std::os::unix::fs::symlink;

use session_fixture::*;
use whittle_core::session::{
    load_session, resolve_session_dir, ResolveError, SessionProblem, META_FILE, STEPS_FILE,
};
use whittle_core::workspace::list_sessions;

const SECRET: &str = "AKIA-OUTSIDE-SECRET-0001";

/// A file outside the workspace that a hostile session points at.
fn outside_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("private.txt");
    std::fs::write(
        &file,
        format!("{{\"index\": 1, \"action\": \"{SECRET}\"}}\n"),
    )
    .unwrap();
    (elsewhere, file)
}

#[test]
fn a_session_folder_linking_out_of_the_workspace_is_refused() {
    let ws = Workspace::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let real = elsewhere.path().join("2026-05-14_100000_s");
    std::fs::create_dir(&real).unwrap();
    write(
        &real,
        META_FILE,
        &meta("2026-05-14_100000_s", "2026-05-14T10:00:00Z").to_string(),
    );
    symlink(&real, ws.session_dir("2026-05-14_100000_s")).unwrap();

    let err = resolve_session_dir(ws.path(), "2026-05-14_100000_s").unwrap_err();
    assert!(
        matches!(err, ResolveError::OutsideWorkspace { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("is not a session folder inside"),
        "{err}"
    );
    // The session list names it as a link and reads nothing through it.
    let listed = list_sessions(ws.path()).unwrap();
    assert_eq!(listed.len(), 1);
    let problem = listed[0].problem.as_ref().expect("a problem");
    assert_eq!(problem.problem, SessionProblem::SymlinkedFolder);
    assert!(problem.to_string().contains("symbolic link"));
    assert_eq!(listed[0].name, "");
}

#[test]
fn a_steps_file_linking_outside_the_session_is_refused_without_reading_it() {
    let ws = Workspace::new();
    let dir = ws.session("2026-05-14_100000_s", "2026-05-14T10:00:00Z", 3, &[]);
    let (_elsewhere, outside) = outside_file();
    std::fs::remove_file(dir.join(STEPS_FILE)).unwrap();
    symlink(&outside, dir.join(STEPS_FILE)).unwrap();

    let err = load_session(&dir).unwrap_err();
    assert!(
        matches!(err.problem, SessionProblem::SymlinkOutside),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "steps.jsonl: is a symbolic link to a file outside the session folder; refusing to follow it"
    );
    assert!(!format!("{err:?}").contains(SECRET));

    // The workspace list shows the same problem instead of the outside file's steps.
    let listed = list_sessions(ws.path()).unwrap();
    assert_eq!(listed.len(), 1);
    let problem = listed[0].problem.as_ref().expect("a problem");
    assert_eq!(problem.problem, SessionProblem::SymlinkOutside);
    assert!(problem.to_string().contains("symbolic link"), "{problem}");
    assert_eq!(listed[0].step_count, 0);
}

#[test]
fn meta_linking_outside_and_a_dangling_link_are_refused() {
    let ws = Workspace::new();
    let dir = ws.session("2026-05-14_100000_s", "2026-05-14T10:00:00Z", 3, &[]);
    let (elsewhere, _outside) = outside_file();
    let outside_meta = elsewhere.path().join("meta.json");
    std::fs::write(&outside_meta, meta("2026-05-14_100000_s", "x").to_string()).unwrap();
    std::fs::remove_file(dir.join(META_FILE)).unwrap();
    symlink(&outside_meta, dir.join(META_FILE)).unwrap();
    let err = load_session(&dir).unwrap_err();
    assert_eq!(err.file, META_FILE);
    assert!(
        matches!(err.problem, SessionProblem::SymlinkOutside),
        "{err}"
    );

    std::fs::remove_file(dir.join(META_FILE)).unwrap();
    symlink(elsewhere.path().join("gone.json"), dir.join(META_FILE)).unwrap();
    let err = load_session(&dir).unwrap_err();
    assert!(
        matches!(err.problem, SessionProblem::SymlinkOutside),
        "{err}"
    );
}

#[test]
fn a_link_to_a_file_inside_the_same_session_is_followed() {
    let ws = Workspace::new();
    let dir = ws.session("2026-05-14_100000_s", "2026-05-14T10:00:00Z", 3, &[]);
    std::fs::rename(dir.join(STEPS_FILE), dir.join("steps-v2.jsonl")).unwrap();
    symlink("steps-v2.jsonl", dir.join(STEPS_FILE)).unwrap();
    assert_eq!(load_session(&dir).unwrap().steps.len(), 3);
}
