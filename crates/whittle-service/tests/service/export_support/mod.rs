//! The export input and screenshot files shared by the bundle tests.

use std::path::{Path, PathBuf};

use serde_json::json;
use whittle_core::model::Confidence;
use whittle_service::export::{export_bundle, ExportInput, ExportShot, ExportStep};

/// A real Java crash as `adb logcat` prints it (tests/fixtures/stacks/java, see
/// tests/fixtures/SOURCES.md), with a line that names a private e-mail address appended.
pub const STACK: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/stacks/java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt"
));

pub fn unlabelled(shots: Vec<PathBuf>) -> Vec<ExportShot> {
    shots
        .into_iter()
        .map(|path| ExportShot {
            path,
            attempt: None,
        })
        .collect()
}

pub fn input(shots: Vec<PathBuf>) -> ExportInput {
    labelled_input(unlabelled(shots))
}

pub fn labelled_input(shots: Vec<ExportShot>) -> ExportInput {
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
        side_process: None,
        attempts: 11,
        confidence: Confidence::High,
        complete: true,
        end: whittle_core::run_end::RunEnd::Minimized,
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
        masking_level: Some(whittle_service::config::PrivacyLevel::Strict),
        review: None,
        filmstrip: None,
        evidence_session: "2026-05-14_170000_minimize-checkout".into(),
        seal: whittle_service::export::SealCheck::Verified,
    }
}

pub fn shots(dir: &Path) -> Vec<PathBuf> {
    let a = dir.join("attempt-01.png");
    let b = dir.join("attempt 02.png");
    std::fs::write(&a, b"png-a").unwrap();
    std::fs::write(&b, b"png-b").unwrap();
    vec![a, b]
}

pub fn exported() -> (tempfile::TempDir, PathBuf) {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = export_bundle(&input(shots(src.path())), out.path(), "b").unwrap();
    (out, dir)
}
