//! A full or read-only disk while the sidecar or an export is written (issue #8). Tests
//! run as root, where a read-only folder stops nothing, so `atomic::fault` makes the next
//! atomic write on this thread fail at a chosen step with the kernel's own error. Each
//! case: a typed error naming the path and the reason, the previous file intact, no
//! temporary file left, no half-written bundle.

use crate::export_support;
use crate::sidecar_support;

use std::path::Path;

use whittle_core::model::SIDECAR_FILE;
use whittle_service::atomic::fault::{self, Stage};
use whittle_service::atomic::{write_atomic, FileMode};
use whittle_service::export::{export_bundle, read_bundle, ExportError};
use whittle_service::sidecar::{write_sidecar_entry, SidecarError};

use sidecar_support::entry;

const STAGES: [(Stage, &str); 3] = [
    (Stage::Create, "Read-only file system"),
    (Stage::Write, "No space left on device"),
    (Stage::Rename, "Read-only file system"),
];

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_helper_fails_with_the_os_error_and_leaves_the_old_file_and_no_temp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("result.json");
    write_atomic(&path, b"old and whole", FileMode::Private).unwrap();
    for (stage, reason) in STAGES {
        fault::fail_next(stage);
        let err = write_atomic(&path, b"new bytes that never land", FileMode::Private)
            .expect_err("the injected fault fails the write");
        assert!(err.to_string().contains(reason), "{stage:?}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old and whole", "{stage:?}");
        assert_eq!(names_in(dir.path()), ["result.json"], "{stage:?}");
    }
    // The fault is consumed: the next write succeeds.
    write_atomic(&path, b"new", FileMode::Private).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
}

#[test]
fn sidecar_write_on_a_full_or_read_only_disk_keeps_the_old_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("2026-05-14_160354_checkout-npe");
    std::fs::create_dir(&session).unwrap();
    std::fs::write(session.join("crashes.jsonl"), b"{\"crash_id\":\"c1\"}\n").unwrap();
    write_sidecar_entry(&session, "c1", entry(&[1, 4])).unwrap();
    let before = std::fs::read(session.join(SIDECAR_FILE)).unwrap();
    let files_before = names_in(&session);

    for (stage, reason) in STAGES {
        fault::fail_next(stage);
        let err = write_sidecar_entry(&session, "c2", entry(&[2])).unwrap_err();
        let SidecarError::Write { path, .. } = &err else {
            panic!("{stage:?}: not a write error: {err}");
        };
        assert_eq!(path, &session.join(SIDECAR_FILE));
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!(
                "cannot write {}: ",
                session.join(SIDECAR_FILE).display()
            )),
            "{shown}"
        );
        assert!(shown.contains(reason), "{stage:?}: {shown}");
        assert_eq!(
            std::fs::read(session.join(SIDECAR_FILE)).unwrap(),
            before,
            "{stage:?}"
        );
        assert_eq!(
            names_in(&session),
            files_before,
            "{stage:?}: a temp file was left"
        );
    }
    assert_eq!(
        std::fs::read(session.join("crashes.jsonl")).unwrap(),
        b"{\"crash_id\":\"c1\"}\n"
    );
}

#[test]
fn export_on_a_full_or_read_only_disk_leaves_no_bundle() {
    let src = tempfile::tempdir().unwrap();
    let shot = src.path().join("attempt-01.png");
    std::fs::write(&shot, b"png").unwrap();
    let out = tempfile::tempdir().unwrap();
    for (stage, reason) in STAGES {
        fault::fail_next(stage);
        let err = export_bundle(
            &export_support::input(vec![shot.clone()]),
            out.path(),
            "bundle",
        )
        .unwrap_err();
        let ExportError::Io { path, source } = &err else {
            panic!("{stage:?}: not an I/O error: {err}");
        };
        // The manifest is written last: when it cannot be, nothing of the bundle stays.
        assert_eq!(path, &out.path().join("bundle/manifest.json"), "{stage:?}");
        assert!(source.to_string().contains(reason), "{stage:?}: {err}");
        assert!(err.to_string().contains("manifest.json"), "{err}");
        assert!(
            names_in(out.path()).is_empty(),
            "{stage:?}: {:?}",
            names_in(out.path())
        );
    }
    let dir = export_bundle(&export_support::input(vec![shot]), out.path(), "bundle").unwrap();
    read_bundle(&dir).expect("the retry writes a complete, verifiable bundle");
}
