use crate::sidecar_support;

use std::path::Path;
use std::sync::Arc;

use whittle_core::model::{Sidecar, SIDECAR_FILE};
use whittle_service::sidecar::{write_sidecar_entry, SidecarError};

use sidecar_support::entry;

fn read(dir: &Path) -> Sidecar {
    serde_json::from_str(&std::fs::read_to_string(dir.join(SIDECAR_FILE)).unwrap()).unwrap()
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn merge_keeps_other_entries_and_never_touches_crashes_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let crashes = "{\"crash_id\":\"c1\"}\n{\"crash_id\":\"c2\"}\n";
    std::fs::write(dir.path().join("crashes.jsonl"), crashes).unwrap();

    let path = write_sidecar_entry(dir.path(), "c1", entry(&[1, 3])).unwrap();
    assert_eq!(path, dir.path().join(SIDECAR_FILE));
    write_sidecar_entry(dir.path(), "c2", entry(&[2])).unwrap();
    write_sidecar_entry(dir.path(), "c1", entry(&[3])).unwrap();

    let sidecar = read(dir.path());
    assert_eq!(sidecar.schema, 1);
    assert_eq!(sidecar.crashes.len(), 2);
    assert_eq!(sidecar.crashes["c1"].minimized_repro_path, vec![3]);
    assert_eq!(sidecar.crashes["c2"].minimized_repro_path, vec![2]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("crashes.jsonl")).unwrap(),
        crashes
    );
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn eight_concurrent_writers_lose_nothing() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let threads: Vec<_> = (0..8u32)
        .map(|i| {
            let dir = Arc::clone(&dir);
            std::thread::spawn(move || {
                write_sidecar_entry(dir.path(), &format!("c{i}"), entry(&[i])).unwrap()
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let sidecar = read(dir.path());
    assert_eq!(sidecar.crashes.len(), 8);
    for i in 0..8u32 {
        assert_eq!(
            sidecar.crashes[&format!("c{i}")].minimized_repro_path,
            vec![i]
        );
    }
}

#[test]
fn a_corrupt_sidecar_is_an_error_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(SIDECAR_FILE), "{not json").unwrap();
    let err = write_sidecar_entry(dir.path(), "c1", entry(&[1])).unwrap_err();
    assert!(matches!(err, SidecarError::Corrupt { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(SIDECAR_FILE)).unwrap(),
        "{not json"
    );

    std::fs::write(
        dir.path().join(SIDECAR_FILE),
        r#"{"schema": 9, "crashes": {}}"#,
    )
    .unwrap();
    let err = write_sidecar_entry(dir.path(), "c1", entry(&[1])).unwrap_err();
    assert!(
        matches!(err, SidecarError::Schema { found: 9, .. }),
        "{err}"
    );
}

#[test]
fn missing_folder_and_empty_id_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("nope");
    assert!(matches!(
        write_sidecar_entry(&gone, "c1", entry(&[1])),
        Err(SidecarError::NoSessionDir(_))
    ));
    assert!(matches!(
        write_sidecar_entry(dir.path(), "", entry(&[1])),
        Err(SidecarError::EmptyCrashId)
    ));
    assert!(!gone.exists());
}

/// Makes `dir` unwritable even for root (chmod is not enough then), or returns false.
fn make_read_only(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(dir.join("probe"), b"").is_err() {
        return true;
    }
    let _ = std::fs::remove_file(dir.join("probe"));
    std::process::Command::new("chattr")
        .arg("+i")
        .arg(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(dir)
        .status();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn read_only_folder_gives_a_typed_error_and_leaves_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s1");
    std::fs::create_dir(&session).unwrap();
    write_sidecar_entry(&session, "c1", entry(&[1])).unwrap();
    let before = std::fs::read_to_string(session.join(SIDECAR_FILE)).unwrap();
    if !make_read_only(&session) {
        make_writable(&session);
        println!("skipped: cannot make a folder read-only here");
        return;
    }
    let result = write_sidecar_entry(&session, "c2", entry(&[2]));
    let after = std::fs::read_to_string(session.join(SIDECAR_FILE)).unwrap();
    let left = leftovers(&session);
    make_writable(&session);
    let err = result.unwrap_err();
    assert!(
        matches!(err, SidecarError::Write { .. } | SidecarError::Lock { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("s1"), "{err}");
    assert_eq!(after, before);
    assert!(left.is_empty(), "{left:?}");
}
