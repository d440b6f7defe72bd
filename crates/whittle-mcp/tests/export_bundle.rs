use std::path::{Path, PathBuf};

use serde_json::json;
use whittle_core::engine::Phase;
use whittle_core::model::Confidence;
use whittle_mcp::evidence::ReviewSummary;
use whittle_mcp::export::{
    export_bundle, read_bundle, ExportError, ExportInput, ExportShot, ExportStep, Manifest,
    ShotLabel, ShotVerdict,
};

/// A real Java crash as `adb logcat` prints it (tests/fixtures/stacks/java, see
/// tests/fixtures/SOURCES.md), with a line that names a private e-mail address appended.
const STACK: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/stacks/java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt"
));

fn unlabelled(shots: Vec<PathBuf>) -> Vec<ExportShot> {
    shots
        .into_iter()
        .map(|path| ExportShot {
            path,
            attempt: None,
        })
        .collect()
}

fn input(shots: Vec<PathBuf>) -> ExportInput {
    labelled_input(unlabelled(shots))
}

fn labelled_input(shots: Vec<ExportShot>) -> ExportInput {
    ExportInput {
        engine_version: "0.1.0".into(),
        package: "com.example.shop".into(),
        app_version: Some("2.3.0 (230)".into()),
        device: "sim-1".into(),
        device_name: None,
        os_version: None,
        target_fingerprint: Some("0123456789ab".into()),
        target_label: "NullPointerException at CheckoutActivity.onClick".into(),
        target_stack: None,
        attempts: 11,
        confidence: Confidence::High,
        complete: true,
        original_path: vec![1, 2, 3, 4, 5],
        minimal_path: vec![1, 2, 4],
        steps: vec![
            ExportStep {
                index: 1,
                description: "Launch com.example.shop".into(),
                action: json!({"index": 1, "action_type": "launch"}),
            },
            ExportStep {
                index: 2,
                description: "Tap Cart".into(),
                action: json!({"action_type": "tap", "strategies": [{"by": "identifier", "value": "com.example.shop:id/btn_cart"}]}),
            },
            ExportStep {
                index: 4,
                description: "Type jane.doe@example.com into e-mail\nthen go".into(),
                action: json!({"action_type": "input_text", "input_value": "jane.doe@example.com"}),
            },
        ],
        proof_lines: vec![
            "baseline reproduced 3/3".into(),
            "every single deletion: 3 negatives".into(),
        ],
        rate_lines: vec![
            "final path: reproduced 3 of 3 (95 % interval 43–100 %)".into(),
            "without step 2: reproduced 0 of 3 (95 % interval 0–57 %)".into(),
        ],
        screenshots: shots,
        masking_level: Some(whittle_mcp::config::PrivacyLevel::Strict),
        review: None,
        filmstrip: None,
    }
}

fn shots(dir: &Path) -> Vec<PathBuf> {
    let a = dir.join("attempt-01.png");
    let b = dir.join("attempt 02.png");
    std::fs::write(&a, b"png-a").unwrap();
    std::fs::write(&b, b"png-b").unwrap();
    vec![a, b]
}

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
        Some(whittle_mcp::config::PrivacyLevel::Strict),
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

fn exported() -> (tempfile::TempDir, PathBuf) {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = export_bundle(&input(shots(src.path())), out.path(), "b").unwrap();
    (out, dir)
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

fn label(attempt: u32, phase: Phase, candidate: &[u32], verdict: ShotVerdict) -> ShotLabel {
    ShotLabel {
        attempt,
        phase: Some(phase),
        candidate: candidate.to_vec(),
        verdict,
    }
}

/// What a developer acts on: device and Android version, the steps once each with launch
/// first, the crash's stack (private lines redacted), the verify command, screenshots
/// named and tabled by attempt and verdict, and the review recorded in the manifest.
#[test]
fn the_bundle_says_what_a_developer_needs_once_and_labelled() {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let files = shots(src.path());
    let mut i = labelled_input(vec![
        ExportShot {
            path: files[0].clone(),
            attempt: Some(label(
                1,
                Phase::Baseline,
                &[2, 3, 4, 5],
                ShotVerdict::Reproduced,
            )),
        },
        ExportShot {
            path: files[1].clone(),
            attempt: Some(label(6, Phase::Confirm, &[2, 4], ShotVerdict::Reproduced)),
        },
        ExportShot {
            path: files[0].clone(),
            attempt: Some(label(3, Phase::Bisect, &[4, 5], ShotVerdict::NotReproduced)),
        },
    ]);
    i.device_name = Some("Pixel 7".into());
    i.os_version = Some("14".into());
    i.target_stack = Some(format!(
        "{STACK}\nCaused by: no account for jane.doe@example.com"
    ));
    i.review = Some(ReviewSummary {
        total: 4,
        reviewed: 3,
        omitted: 1,
        not_reviewed: vec![3],
    });
    let dir = export_bundle(&i, out.path(), "npe-ticket").unwrap();
    let md = std::fs::read_to_string(dir.join("repro.md")).unwrap();

    assert!(md.contains("- Device: Pixel 7 (`sim-1`)"), "{md}");
    assert!(md.contains("- Android version: 14"), "{md}");
    assert_eq!(md.matches("Launch").count(), 1, "launch is one step:\n{md}");
    assert!(
        md.contains("1. Launch `com.example.shop` from a fresh start"),
        "{md}"
    );
    assert!(md.contains("2. Tap Cart (original step 2)"), "{md}");
    assert!(md.contains("3. [redacted] (original step 4)"), "{md}");
    assert!(!md.contains("4. "), "no fourth step:\n{md}");

    // The stack, as recorded, in a code block; the private line is gone.
    assert!(md.contains("## Stack trace"), "{md}");
    assert!(md.contains("FATAL EXCEPTION: main"), "{md}");
    assert!(
        md.contains("    at android.view.View.performClick(View.java:7456)"),
        "{md}"
    );
    assert!(
        md.contains("MainActivity$$ExternalSyntheticLambda0.onClick"),
        "{md}"
    );
    assert!(!md.contains("jane.doe"), "{md}");
    assert!(md.contains("[redacted]"));

    assert!(md.contains("whittle verify npe-ticket --runs 3"), "{md}");

    for row in [
        "| `screenshots/attempt-001-reproduced.png` | 1 | baseline (the whole path) | 1, 2, 3, 4, 5 |",
        "| `screenshots/attempt-006-reproduced.png` | 6 | final confirmation | 1, 2, 4 (the minimal path) |",
        "| `screenshots/attempt-003-not-reproduced.png` | 3 | bisect | 1, 4, 5 | no target crash |",
    ] {
        assert!(md.contains(row), "missing row {row}\n{md}");
    }
    assert!(
        md.contains("3 of 4 screenshots checked by a person · 1 omitted · not checked: attempt 3"),
        "{md}"
    );
    assert!(
        md.contains("The crash on the minimal path: `screenshots/attempt-006-reproduced.png`."),
        "{md}"
    );

    let bundle = read_bundle(&dir).unwrap();
    let m = &bundle.manifest;
    assert_eq!(m.device_name.as_deref(), Some("Pixel 7"));
    assert_eq!(m.os_version.as_deref(), Some("14"));
    assert_eq!(m.review, i.review);
    let labelled: Vec<(&str, u32, ShotVerdict)> = m
        .screenshots
        .iter()
        .map(|s| (s.path.as_str(), s.label.attempt, s.label.verdict))
        .collect();
    assert_eq!(
        labelled,
        [
            (
                "screenshots/attempt-001-reproduced.png",
                1,
                ShotVerdict::Reproduced
            ),
            (
                "screenshots/attempt-006-reproduced.png",
                6,
                ShotVerdict::Reproduced
            ),
            (
                "screenshots/attempt-003-not-reproduced.png",
                3,
                ShotVerdict::NotReproduced
            ),
        ]
    );
    for shot in &m.screenshots {
        assert!(
            m.files.iter().any(|f| f.path == shot.path),
            "{} is hashed",
            shot.path
        );
    }
}

#[test]
fn a_manifest_without_the_new_fields_still_reads() {
    let (_keep, dir) = exported();
    let path = dir.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let obj = v.as_object_mut().unwrap();
    for key in ["device_name", "os_version", "screenshots", "review"] {
        obj.remove(key);
    }
    std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    let bundle = read_bundle(&dir).unwrap();
    assert!(bundle.manifest.review.is_none() && bundle.manifest.screenshots.is_empty());
}
