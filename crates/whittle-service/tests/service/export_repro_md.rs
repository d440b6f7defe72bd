//! What a bundle's `repro.md` and manifest tell a developer: device, steps once each,
//! the stack without private lines, labelled screenshots, the review; older manifests
//! still read.

use whittle_core::engine::Phase;
use whittle_service::evidence::ReviewSummary;
use whittle_service::export::{
    export_bundle, read_bundle, ExportShot, FrameRef, ShotLabel, ShotVerdict,
};

use crate::export_support;

use export_support::*;

fn label(attempt: u32, phase: Phase, candidate: &[u32], verdict: ShotVerdict) -> ShotLabel {
    ShotLabel {
        attempt,
        phase: Some(phase),
        candidate: candidate.to_vec(),
        verdict,
        before_step: None,
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
        not_reviewed_frames: vec![
            FrameRef {
                attempt: 6,
                frame: 3,
            },
            FrameRef {
                attempt: 6,
                frame: 2,
            },
        ],
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
        md.contains(
            "3 of 4 screenshots checked by a person · 1 omitted · not checked: attempt 3 \
             · filmstrip frames not checked: 2–3 of attempt 6."
        ),
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

/// A cancelled run (issue 26, case 1) or one stopped by the infrastructure exports its
/// shortest path so far, and no file of the bundle calls it minimal or a proof; a
/// minimized run's bundle does.
#[test]
fn only_a_minimized_run_is_called_minimal_in_the_bundle() {
    use whittle_core::engine::FailureCause;
    use whittle_core::run_end::RunEnd;
    let src = tempfile::tempdir().unwrap();
    let files = shots(src.path());
    let stopped = [
        RunEnd::Cancelled,
        RunEnd::Unproven,
        RunEnd::RuntimeFailed {
            cause: FailureCause::Tool {
                step: Some(4),
                detail: "device offline".into(),
            },
        },
    ];
    for end in stopped.into_iter().chain([RunEnd::Minimized]) {
        let out = tempfile::tempdir().unwrap();
        let mut i = input(files.clone());
        i.end = end.clone();
        i.complete = false;
        let dir = export_bundle(&i, out.path(), "bundle").unwrap();
        let mut texts = whittle_service::export::ticket_markdown(&i);
        for name in ["repro.md", "repro.maestro.yaml", "repro.robo.json"] {
            texts +=
                &std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let lower = texts.to_lowercase();
        if end.is_minimal() {
            assert!(lower.contains("minimal path"), "{texts}");
            assert!(texts.contains("## Proof"), "{texts}");
        } else {
            assert!(!lower.contains("minimal path"), "{end:?}: {texts}");
            assert!(!lower.contains("minimal reproduction"), "{end:?}: {texts}");
            assert!(!texts.contains("## Proof"), "{end:?}: {texts}");
            assert!(lower.contains("shortest path so far"), "{end:?}: {texts}");
            assert!(lower.contains("minimality not proven"), "{end:?}: {texts}");
        }
        if end == RunEnd::Cancelled {
            assert!(lower.contains("cancelled"), "{texts}");
        }
    }
}
