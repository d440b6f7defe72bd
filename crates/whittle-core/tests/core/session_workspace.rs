//! `list_sessions`: newest first, malformed sessions listed with their problem.

use crate::session_fixture;

use serde_json::json;
use session_fixture::*;
use whittle_core::model::SessionStatus;
use whittle_core::session::SessionProblem;
use whittle_core::workspace::{list_sessions, WorkspaceError};

#[test]
fn lists_newest_first_with_counts_and_groups() {
    let ws = Workspace::new();
    ws.session("2026-05-10_a", "2026-05-10T09:00:00Z", 3, &[]);
    ws.session(
        "2026-05-14_b",
        "2026-05-14T10:00:00+02:00",
        4,
        &[
            crash("c1", NPE, &[1, 2, 3]),
            crash("c2", NPE, &[1, 2, 4]),
            crash("c3", ISE, &[1, 3]),
        ],
    );
    // Same instant as b in another offset: the tie is broken by id, descending.
    ws.session(
        "2026-05-14_c",
        "2026-05-14T08:00:00Z",
        2,
        &[crash("c1", ISE, &[1, 2])],
    );
    ws.session("zz-no-date", "not a date", 1, &[]);
    std::fs::write(ws.path().join("sessions/stray-file.txt"), "x").unwrap();

    let list = list_sessions(ws.path()).unwrap();
    let ids: Vec<&str> = list.iter().map(|s| s.session_id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["2026-05-14_c", "2026-05-14_b", "2026-05-10_a", "zz-no-date"]
    );

    let b = &list[1];
    assert_eq!(b.name, "name of 2026-05-14_b");
    assert_eq!(b.status, Some(SessionStatus::Failed));
    assert_eq!(b.platform, "android");
    assert_eq!(b.package.as_deref(), Some("com.example.shop"));
    assert_eq!((b.step_count, b.crash_count), (4, 3));
    assert_eq!(
        b.crash_groups, 2,
        "two NPEs with the same stack are one group"
    );
    assert_eq!(b.problem, None);
    assert_eq!((list[2].crash_count, list[2].crash_groups), (0, 0));
}

#[test]
fn malformed_sessions_are_listed_with_their_problem() {
    let ws = Workspace::new();
    let good = ws.session("good", "2026-05-14T10:00:00Z", 3, &[]);
    let bad_steps = ws.session(
        "bad-steps",
        "2026-05-13T10:00:00Z",
        3,
        &[crash("c1", NPE, &[1])],
    );
    write(&bad_steps, "steps.jsonl", "{\"index\": 1}\n{oops\n");
    let no_meta = ws.session("no-meta", "2026-05-12T10:00:00Z", 2, &[]);
    std::fs::remove_file(no_meta.join("meta.json")).unwrap();
    ws.session(
        "bad-crash",
        "2026-05-11T10:00:00Z",
        2,
        &[crash("c1", NPE, &[1, 7])],
    );
    std::fs::create_dir(ws.path().join("sessions/bad name")).unwrap();
    let _ = good;

    let list = list_sessions(ws.path()).unwrap();
    let find = |id: &str| list.iter().find(|s| s.session_id == id).unwrap();

    assert_eq!(find("good").problem, None);

    let s = find("bad-steps");
    assert!(
        s.problem
            .as_ref()
            .unwrap()
            .to_string()
            .starts_with("steps.jsonl line 2: not valid JSON"),
        "{s:?}"
    );
    assert_eq!(s.name, "name of bad-steps", "meta was still read");
    assert_eq!(s.crash_count, 1, "crashes were still read");

    let s = find("no-meta");
    assert!(
        s.problem
            .as_ref()
            .unwrap()
            .to_string()
            .starts_with("meta.json: missing"),
        "{s:?}"
    );
    assert_eq!((s.status, s.step_count), (None, 2));

    let s = find("bad-crash");
    assert!(
        s.problem
            .as_ref()
            .unwrap()
            .to_string()
            .contains("has no step 7"),
        "{s:?}"
    );

    let s = find("bad name");
    assert!(
        matches!(
            s.problem.as_ref().unwrap().problem,
            SessionProblem::BadFolderName { .. }
        ),
        "{s:?}"
    );
    // On the wire the problem is typed: the window words it in its language.
    let wire = serde_json::to_value(&s.problem).unwrap();
    assert_eq!(wire["problem"]["code"], "bad_folder_name", "{wire}");

    let json = serde_json::to_value(find("good")).unwrap();
    assert_eq!(json["status"], json!("failed"));
    assert_eq!(json["step_count"], json!(3));
}

#[cfg(unix)]
#[test]
fn symlinked_sessions_are_not_followed() {
    let ws = Workspace::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("real");
    std::fs::create_dir(&target).unwrap();
    write(
        &target,
        "meta.json",
        &meta("real", "2026-05-14T10:00:00Z").to_string(),
    );
    std::os::unix::fs::symlink(&target, ws.session_dir("linked")).unwrap();
    let list = list_sessions(ws.path()).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        list[0].problem.as_ref().unwrap().problem,
        SessionProblem::SymlinkedFolder
    );
    assert_eq!(list[0].name, "", "nothing was read through the link");
}

#[test]
fn a_folder_without_sessions_is_not_a_workspace() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        list_sessions(dir.path()),
        Err(WorkspaceError::NoSessionsFolder { .. })
    ));
    let ws = Workspace::new();
    assert!(list_sessions(ws.path()).unwrap().is_empty());
}
