//! Session ids and folder resolution: confined to `<workspace>/sessions/`.

use crate::session_fixture;

use session_fixture::Workspace;
use whittle_core::session::{
    resolve_session_dir, validate_session_id, ResolveError, SessionIdError,
};

#[test]
fn valid_ids() {
    for id in [
        "a",
        "2026-05-14_165500_minimize-qa",
        "x.y_z-1",
        ".hidden",
        &"a".repeat(128),
    ] {
        assert_eq!(validate_session_id(id), Ok(()), "{id}");
    }
}

#[test]
fn invalid_ids() {
    assert_eq!(validate_session_id(""), Err(SessionIdError::Empty));
    assert_eq!(validate_session_id("."), Err(SessionIdError::DotName));
    assert_eq!(validate_session_id(".."), Err(SessionIdError::DotName));
    assert_eq!(
        validate_session_id(&"a".repeat(129)),
        Err(SessionIdError::TooLong { len: 129 })
    );
    for (id, found, position) in [
        ("a/b", '/', 2),
        ("/etc", '/', 1),
        ("a\0b", '\0', 2),
        ("a b", ' ', 2),
        ("a\\b", '\\', 2),
        ("séance", 'é', 2),
        ("x;rm", ';', 2),
    ] {
        assert_eq!(
            validate_session_id(id),
            Err(SessionIdError::InvalidChar { found, position }),
            "{id:?}"
        );
    }
    let text = validate_session_id("a\nb").unwrap_err().to_string();
    assert!(text.contains("'\\n'") || text.contains("\\n"), "{text}");
    assert!(!text.contains('\n'), "{text}");
}

#[test]
fn resolves_an_id_and_an_absolute_dir_inside() {
    let ws = Workspace::new();
    let dir = ws.session("s1", "2026-05-14T10:00:00Z", 2, &[]);
    let canonical = dir.canonicalize().unwrap();
    assert_eq!(resolve_session_dir(ws.path(), "s1").unwrap(), canonical);
    assert_eq!(
        resolve_session_dir(ws.path(), dir.to_str().unwrap()).unwrap(),
        canonical
    );
    let dotted = ws.path().join("sessions/../sessions/s1");
    assert_eq!(
        resolve_session_dir(ws.path(), dotted.to_str().unwrap()).unwrap(),
        canonical
    );
}

#[test]
fn refuses_paths_outside_and_unknown_ids() {
    let ws = Workspace::new();
    ws.session("s1", "2026-05-14T10:00:00Z", 2, &[]);
    let elsewhere = tempfile::tempdir().unwrap();

    assert!(matches!(
        resolve_session_dir(ws.path(), "missing"),
        Err(ResolveError::NotFound { .. })
    ));
    assert!(matches!(
        resolve_session_dir(ws.path(), ".."),
        Err(ResolveError::InvalidId(SessionIdError::DotName))
    ));
    assert!(matches!(
        resolve_session_dir(ws.path(), "sessions/s1"),
        Err(ResolveError::RelativePath)
    ));
    assert!(matches!(
        resolve_session_dir(ws.path(), elsewhere.path().to_str().unwrap()),
        Err(ResolveError::OutsideWorkspace { .. })
    ));
    // The sessions folder itself and the workspace root are not sessions.
    for not_a_session in [ws.path().join("sessions"), ws.path().to_path_buf()] {
        assert!(matches!(
            resolve_session_dir(ws.path(), not_a_session.to_str().unwrap()),
            Err(ResolveError::OutsideWorkspace { .. })
        ));
    }
    // A nested folder inside a session is not a session either.
    let nested = ws.session_dir("s1").join("screenshots");
    std::fs::create_dir(&nested).unwrap();
    assert!(matches!(
        resolve_session_dir(ws.path(), nested.to_str().unwrap()),
        Err(ResolveError::OutsideWorkspace { .. })
    ));
    let no_workspace = tempfile::tempdir().unwrap();
    assert!(matches!(
        resolve_session_dir(no_workspace.path(), "s1"),
        Err(ResolveError::NoSessionsFolder { .. })
    ));
}

#[cfg(unix)]
#[test]
fn refuses_symlinks_out_of_the_workspace() {
    let ws = Workspace::new();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir(elsewhere.path().join("evil")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path().join("evil"), ws.session_dir("evil")).unwrap();
    assert!(matches!(
        resolve_session_dir(ws.path(), "evil"),
        Err(ResolveError::OutsideWorkspace { .. })
    ));
    assert!(matches!(
        resolve_session_dir(ws.path(), ws.session_dir("evil").to_str().unwrap()),
        Err(ResolveError::OutsideWorkspace { .. })
    ));
}
