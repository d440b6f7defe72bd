//! The bug-ticket bundle: complete, verified, refused before anything is written, never
//! half-written, and tamper-evident.

use std::path::Path;

use whittle_core::model::Confidence;
use whittle_service::export::{export_bundle, read_bundle, ExportError, Manifest};

use crate::export_support;

use export_support::*;

#[test]
fn writes_a_complete_bundle_that_verifies() {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = export_bundle(&input(shots(src.path())), out.path(), "npe-checkout").unwrap();
    assert_eq!(dir, out.path().join("npe-checkout"));

    let md = std::fs::read_to_string(dir.join("repro.md")).unwrap();
    for needle in [
        "com.example.shop",
        "2.3.0 (230)",
        "sim-1",
        "0123456789ab",
        "**high**",
        "minimal / converged",
        "Tap Cart",
        "baseline reproduced 3/3",
        "## Reproduction rates",
        "- final path: reproduced 3 of 3 (95 % interval 43–100 %)",
        "- without step 2: reproduced 0 of 3 (95 % interval 0–57 %)",
    ] {
        assert!(md.contains(needle), "repro.md lacks {needle}:\n{md}");
    }
    assert!(
        !md.contains("jane.doe"),
        "a sensitive value reached repro.md"
    );
    let replay = std::fs::read_to_string(dir.join("replay.json")).unwrap();
    assert!(
        !replay.contains("jane.doe"),
        "a sensitive value reached replay.json"
    );
    assert!(replay.contains("btn_cart"));
    assert_eq!(
        std::fs::read(dir.join("screenshots/01-attempt-01.png")).unwrap(),
        b"png-a"
    );
    assert_eq!(
        std::fs::read(dir.join("screenshots/02-attempt_02.png")).unwrap(),
        b"png-b"
    );

    let bundle = read_bundle(&dir).unwrap();
    assert_eq!(bundle.manifest.package, "com.example.shop");
    assert_eq!(bundle.manifest.attempts, 11);
    assert_eq!(bundle.manifest.confidence, Confidence::High);
    assert_eq!(
        bundle.manifest.masking_level,
        Some(whittle_service::config::PrivacyLevel::Strict),
        "the manifest records the level the screenshots were masked at"
    );
    let raw_manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(
        raw_manifest.contains("\"masking_level\": \"strict\""),
        "{raw_manifest}"
    );
    let mut listed: Vec<_> = bundle
        .manifest
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        [
            "replay.json",
            "repro.maestro.yaml",
            "repro.md",
            "repro.robo.json",
            "screenshots/01-attempt-01.png",
            "screenshots/02-attempt_02.png"
        ]
    );
    assert!(bundle.manifest.files.iter().all(|f| f.sha256.len() == 64));
    assert_eq!(bundle.replay.minimal_path, vec![1, 2, 4]);
    assert_eq!(bundle.replay.steps.len(), 3);
}

#[test]
fn incomplete_result_is_worded_as_unproven() {
    let out = tempfile::tempdir().unwrap();
    let mut i = input(vec![]);
    i.complete = false;
    i.confidence = Confidence::Medium;
    i.end = whittle_core::run_end::RunEnd::Unproven;
    let dir = export_bundle(&i, out.path(), "b").unwrap();
    let md = std::fs::read_to_string(dir.join("repro.md")).unwrap();
    assert!(
        md.contains("minimality not proven") && !md.contains("minimal / converged"),
        "{md}"
    );
    assert!(!dir.join("screenshots").exists());
    read_bundle(&dir).unwrap();
}

#[test]
fn bad_names_are_refused_before_anything_is_written() {
    let out = tempfile::tempdir().unwrap();
    let long = "a".repeat(129);
    for name in [
        "",
        ".",
        "..",
        "a/b",
        "../x",
        "with space",
        "é",
        long.as_str(),
    ] {
        assert!(
            matches!(
                export_bundle(&input(vec![]), out.path(), name),
                Err(ExportError::BadName(_))
            ),
            "{name:?}"
        );
    }
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

#[test]
fn an_existing_folder_is_never_overwritten() {
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir(out.path().join("b")).unwrap();
    std::fs::write(out.path().join("b/keep.txt"), b"mine").unwrap();
    assert!(matches!(
        export_bundle(&input(vec![]), out.path(), "b"),
        Err(ExportError::Exists(_))
    ));
    assert_eq!(
        std::fs::read(out.path().join("b/keep.txt")).unwrap(),
        b"mine"
    );
    assert_eq!(std::fs::read_dir(out.path().join("b")).unwrap().count(), 1);
}

#[test]
fn a_failure_midway_removes_the_partial_folder() {
    // A regular file that cannot be read (EIO at offset 0) gets past the up-front
    // check and fails while the bundle is half written; permissions would not stop root.
    let unreadable = Path::new("/proc/self/mem");
    if !unreadable.is_file() {
        println!("skipped: /proc/self/mem is not available");
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut shots = shots(src.path());
    shots.push(unreadable.to_path_buf());
    assert!(matches!(
        export_bundle(&input(shots), out.path(), "b"),
        Err(ExportError::Screenshot(_))
    ));
    assert!(!out.path().join("b").exists());
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

#[test]
fn a_missing_screenshot_is_refused_up_front() {
    let out = tempfile::tempdir().unwrap();
    let shots = vec![out.path().join("nope.png")];
    assert!(matches!(
        export_bundle(&input(shots), out.path(), "b"),
        Err(ExportError::Screenshot(_))
    ));
    assert!(!out.path().join("b").exists());
}

#[test]
fn read_bundle_rejects_tampering() {
    let (_keep, dir) = exported();
    std::fs::write(dir.join("screenshots/01-attempt-01.png"), b"edited").unwrap();
    assert!(
        matches!(read_bundle(&dir), Err(ExportError::HashMismatch { file, .. }) if file == "screenshots/01-attempt-01.png")
    );

    let (_keep, dir) = exported();
    std::fs::remove_file(dir.join("repro.md")).unwrap();
    assert!(
        matches!(read_bundle(&dir), Err(ExportError::Missing { file, .. }) if file == "repro.md")
    );

    let (_keep, dir) = exported();
    std::fs::write(dir.join("screenshots/extra.png"), b"x").unwrap();
    assert!(
        matches!(read_bundle(&dir), Err(ExportError::Unlisted { file, .. }) if file == "screenshots/extra.png")
    );

    let (_keep, dir) = exported();
    std::fs::remove_file(dir.join("manifest.json")).unwrap();
    assert!(matches!(read_bundle(&dir), Err(ExportError::Incomplete(_))));

    let (_keep, dir) = exported();
    let mut m: Manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    m.files[0].path = "../escape".into();
    std::fs::write(dir.join("manifest.json"), serde_json::to_vec(&m).unwrap()).unwrap();
    assert!(matches!(
        read_bundle(&dir),
        Err(ExportError::Malformed { .. })
    ));
}
