//! `"masking": {"level": …}` end to end: `whittle minimize` reads it from `whittle.json`,
//! the evidence session records it (meta `extra`, every `.masks.json`), an export's
//! manifest repeats it, and every omitted screenshot says why in its step's notes.

use crate::common;

use common::*;
use serde_json::{json, Value};

fn set_masking(env: &Env, masking: Value) {
    env.edit_config(|config| config["masking"] = masking);
}

fn minimize(env: &Env) -> (Value, std::path::PathBuf) {
    checkout_session(env);
    let answer = env.minimize_json(CHECKOUT, "120", &[]);
    let evidence = env.evidence_dirs().pop().expect("an evidence session");
    (answer, evidence)
}

#[test]
fn the_strict_level_is_recorded_in_the_evidence_and_the_export_manifest() {
    let env = Env::fast(&[]);
    set_masking(&env, json!({"level": "strict"}));
    let (result, evidence) = minimize(&env);
    assert_eq!(result["status"], "minimized");
    assert_eq!(
        read_json(&evidence.join("meta.json"))["extra"]["masking_level"],
        "strict"
    );

    let (mut archived, mut crash_frames) = (0, 0);
    for step in evidence_steps(&evidence) {
        let notes = notes_of(&step);
        match step["screenshot_src"].as_str() {
            Some(src) => {
                archived += 1;
                let record = read_json(&evidence.join(src.replace(".png", ".masks.json")));
                assert_eq!(record["level"], "strict", "{src}");
                // Strict masks every labelled button of the test app's screens.
                assert!(!record["masks"].as_array().unwrap().is_empty(), "{src}");
                assert!(notes.get("screenshot_omitted").is_none());
                // A reproduced attempt ends on the launcher after the crash (no app
                // hierarchy): its picture is the masked frame before its last action.
                if notes["outcome"]["verdict"]["reproduced"] == true {
                    assert!(notes["screenshot_before_step"].is_u64(), "{notes}");
                    crash_frames += 1;
                }
            }
            None => {
                assert_eq!(step["screenshot_redacted"], true);
                let why = notes["screenshot_omitted"]["kind"]
                    .as_str()
                    .unwrap_or_default();
                assert!(
                    !why.is_empty(),
                    "an omission without a typed reason: {notes}"
                );
            }
        }
    }
    assert!(
        archived > 0 && crash_frames > 0,
        "{archived} archived, {crash_frames} of them crash frames"
    );

    let out_dir = env.dir.path().join("bundles");
    std::fs::create_dir_all(&out_dir).unwrap();
    let evidence_id = result["evidence_session"].as_str().unwrap();
    let out = env.whittle(&[
        "export",
        evidence_id,
        "--out",
        out_dir.to_str().unwrap(),
        "--name",
        "t",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read_json(&out_dir.join("t/manifest.json"))["masking_level"],
        "strict"
    );
}

#[test]
fn without_a_level_the_run_is_standard_and_says_so() {
    let env = Env::fast(&[]);
    let (_, evidence) = minimize(&env);
    assert_eq!(
        read_json(&evidence.join("meta.json"))["extra"]["masking_level"],
        "standard"
    );
    let shot = evidence_steps(&evidence)
        .into_iter()
        .find_map(|s| s["screenshot_src"].as_str().map(str::to_string))
        .expect("an archived screenshot");
    let record = read_json(&evidence.join(shot.replace(".png", ".masks.json")));
    assert_eq!(record["level"], "standard");
}

#[test]
fn an_unknown_level_is_a_configuration_error() {
    let env = Env::fast(&[]);
    set_masking(&env, json!({"level": "paranoid"}));
    checkout_session(&env);
    let out = env.whittle(&["minimize", CHECKOUT]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("paranoid"), "{}", stderr(&out));
}
