//! Issue 18's round trips, through the real `whittle` and `whittle-servers` binaries on
//! the demo shop (demo/shop.json, timing zeroed): a Maestro flow and a Robo script
//! import, `--record` finds the checkout crash, `minimize` shortens the path, and the
//! exported `repro.maestro.yaml` / `repro.robo.json` hold exactly the minimal path (read
//! back with the same parsers the import uses), with a filmstrip of masked frames.

use crate::common;

use std::path::{Path, PathBuf};

use common::{assert_exit, evidence_of, json_out, stderr, stdout, Env};
use serde_json::{json, Value};
use whittle_core::import::{maestro, robo, ImportedAction, ImportedFlow};
use whittle_service::export::{read_bundle, MAESTRO_FILE, ROBO_FILE};

fn demo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../demo")
        .join(rel)
}

/// The demo shop with its launch and action delays zeroed (tests replay it dozens of times).
fn env() -> Env {
    let mut model: Value =
        serde_json::from_slice(&std::fs::read(demo("shop.json")).unwrap()).unwrap();
    model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    Env::with_model(model)
}

/// The original flow's actions at `path` (1-based step indexes).
fn at_path(flow: &ImportedFlow, path: &[u64]) -> Vec<ImportedAction> {
    path.iter()
        .map(|&i| flow.steps[i as usize - 1].action.clone())
        .collect()
}

fn actions(flow: &ImportedFlow) -> Vec<ImportedAction> {
    flow.steps.iter().map(|s| s.action.clone()).collect()
}

/// What each action does to which element, across formats: a Robo script names an
/// element by its exact id where a Maestro flow holds a pattern, so two flows doing the
/// same are compared by their element keys.
fn keys(actions: &[ImportedAction]) -> Vec<String> {
    actions
        .iter()
        .map(|a| match a {
            ImportedAction::Tap { element } => format!("tap {}", element.to_key()),
            ImportedAction::LongPress { element } => format!("long press {}", element.to_key()),
            ImportedAction::InputText { value, .. } => format!("type {value:?}"),
            other => format!("{other:?}"),
        })
        .collect()
}

/// A flow file in the env's folder (outside the workspace) holding `text`.
fn flow_file(env: &Env, name: &str, text: &str) -> PathBuf {
    let path = env.dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn path_of(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// import --record → minimize → export; returns the bundle's folder and the minimal path.
fn round_trip(
    env: &Env,
    format: &str,
    file: &Path,
    extra: &[&str],
    trigger: u64,
) -> (PathBuf, Vec<u64>) {
    let mut args = vec![
        "import",
        format,
        file.to_str().unwrap(),
        "--record",
        "--json",
    ];
    args.extend_from_slice(extra);
    let imported = env.whittle_json(&args);
    let session = imported["session_id"].as_str().unwrap().to_string();
    let crashes = imported["recorded"]["crashes"].as_array().unwrap();
    assert_eq!(crashes.len(), 1, "{imported}");
    assert_eq!(crashes[0]["step_index"], trigger, "{imported}");
    assert_eq!(
        path_of(&crashes[0]["repro_path"]),
        (1..=trigger).collect::<Vec<_>>()
    );
    let dir = env.session_dir(&session);
    assert_eq!(common::meta_status(&dir), "failed");
    assert!(dir.join("crashes.jsonl").is_file());

    let result = env.whittle_json(&["minimize", &session, "--json", "--approve"]);
    let minimal = path_of(&result["minimal_path"]);
    let evidence = evidence_of(&result);
    // The final confirmation took the filmstrip and its cost is reported.
    assert!(
        result["filmstrip"]["frames"].as_u64().unwrap() >= 1,
        "{result}"
    );
    assert!(result["filmstrip"]["extra_device_ms"].is_u64(), "{result}");

    let out_dir = env.dir.path().join("bundles");
    assert_exit(&env.export(&evidence, &out_dir, format), 0);
    check_crash_screen(&out_dir.join(format), &minimal);
    (out_dir.join(format), minimal)
}

/// The bundle shows the crash: a masked screenshot of a reproducing replay of the minimal
/// path, the screen right before its last action (after it the app is gone).
fn check_crash_screen(bundle: &Path, minimal: &[u64]) {
    let md = std::fs::read_to_string(bundle.join("repro.md")).unwrap();
    let last = minimal.last().unwrap();
    let line = md
        .lines()
        .find(|l| l.starts_with("The crash on the minimal path: `"))
        .unwrap_or_else(|| panic!("no crash screen in repro.md:\n{md}"));
    assert!(
        line.contains(&format!(
            "(the screen right before step {last}, the last action)"
        )),
        "{line}"
    );
    let file = line.split('`').nth(1).unwrap();
    assert!(file.ends_with("-reproduced.png"), "{line}");
    let png = std::fs::read(bundle.join(file)).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{file} is a PNG");
}

fn check_filmstrip(bundle: &Path, minimal: &[u64]) {
    let read = read_bundle(bundle).unwrap();
    let film = read.manifest.filmstrip.expect("a filmstrip");
    // One frame after the launch and one after each action of the minimal path.
    assert_eq!(film.frames.len(), minimal.len());
    let steps: Vec<u64> = film
        .frames
        .iter()
        .map(|f| u64::from(f.step.unwrap()))
        .collect();
    assert_eq!(steps, minimal);
    let shown: Vec<_> = film.frames.iter().filter_map(|f| f.path.as_ref()).collect();
    assert!(!shown.is_empty());
    for (frame, position) in film.frames.iter().zip(1..) {
        match &frame.path {
            Some(path) => {
                assert_eq!(path, &format!("filmstrip/step-{position:02}.png"));
                let img = image::open(bundle.join(path)).unwrap();
                assert!(img.width() > 0);
            }
            None => assert!(frame.omitted.is_some(), "an omitted frame says why"),
        }
    }
    let gif = bundle.join(film.gif.as_deref().expect("a gif"));
    let bytes = std::fs::read(&gif).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let md = std::fs::read_to_string(bundle.join("repro.md")).unwrap();
    assert!(
        md.contains("## Filmstrip") && md.contains("filmstrip.gif"),
        "{md}"
    );
    assert!(md.contains("maestro test repro.maestro.yaml"));
}

#[test]
fn a_maestro_flow_imports_records_minimizes_and_exports_its_minimal_path() {
    let env = env();
    let flow_file = demo("flows/checkout.maestro.yaml");
    let (bundle, minimal) = round_trip(&env, "maestro", &flow_file, &[], 11);
    assert_eq!(minimal, [1, 8, 10, 11], "the detours are gone");
    let original = maestro::parse("checkout", &std::fs::read(&flow_file).unwrap()).unwrap();

    let exported = std::fs::read(bundle.join(MAESTRO_FILE)).unwrap();
    let text = String::from_utf8(exported.clone()).unwrap();
    assert!(
        text.contains("appId: \"com.example.shop\"\n---\n"),
        "{text}"
    );
    let back = maestro::parse(MAESTRO_FILE, &exported).unwrap();
    assert_eq!(back.package.as_deref(), Some("com.example.shop"));
    assert_eq!(actions(&back), at_path(&original, &minimal), "{text}");

    let robo_text = std::fs::read(bundle.join(ROBO_FILE)).unwrap();
    let robo_back = robo::parse(ROBO_FILE, &robo_text).unwrap();
    // Robo launches the app itself: the import's first step is that launch.
    assert_eq!(
        keys(&actions(&robo_back)),
        keys(&at_path(&original, &minimal))
    );
    check_filmstrip(&bundle, &minimal);

    // The bundle still verifies (every file listed and hashed) and replays.
    env.verify_reproduces(&bundle, 1);
}

/// Issue 29: a flow written as testers write Maestro (regular expressions, a field named
/// by its hint, an id pattern, typing where the focus is) records its crash on the
/// simulator, minimizes, and comes back with its selectors as written.
#[test]
fn a_flow_of_patterns_and_hints_records_minimizes_and_exports() {
    let env = env();
    let flow_file = demo("flows/checkout-by-pattern.maestro.yaml");
    let (bundle, minimal) = round_trip(&env, "maestro", &flow_file, &[], 8);
    assert_eq!(minimal, [1, 6, 7, 8], "the search detour is gone");
    let original = maestro::parse("pattern", &std::fs::read(&flow_file).unwrap()).unwrap();
    let exported = std::fs::read(bundle.join(MAESTRO_FILE)).unwrap();
    let back = maestro::parse(MAESTRO_FILE, &exported).unwrap();
    assert_eq!(
        actions(&back),
        at_path(&original, &minimal),
        "{}",
        String::from_utf8_lossy(&exported)
    );
}

/// Issue 29: a long press after the app was launched again mid-flow records its crash,
/// minimizes (the relaunch and the detour before it are not needed), and is exported as
/// a long press.
#[test]
fn a_long_press_after_a_relaunch_records_minimizes_and_exports() {
    let env = env();
    let flow_file = demo("flows/share-image.maestro.yaml");
    let (bundle, minimal) = round_trip(&env, "maestro", &flow_file, &[], 6);
    assert_eq!(minimal, [1, 5, 6]);
    let original = maestro::parse("share", &std::fs::read(&flow_file).unwrap()).unwrap();
    assert_eq!(
        original.steps[3].action,
        ImportedAction::Relaunch { stop_app: true }
    );
    let exported = std::fs::read(bundle.join(MAESTRO_FILE)).unwrap();
    let back = maestro::parse(MAESTRO_FILE, &exported).unwrap();
    assert_eq!(actions(&back), at_path(&original, &minimal));
    let robo_text = String::from_utf8(std::fs::read(bundle.join(ROBO_FILE)).unwrap()).unwrap();
    // Robo compares exact values: a step named by a pattern is left for the human, never
    // written as a descriptor that would name another element.
    assert!(!robo_text.contains("VIEW_LONG_CLICKED"), "{robo_text}");
    assert!(
        robo_text.contains("left for the human (its Maestro selector has no Robo equivalent)"),
        "{robo_text}"
    );
}

#[test]
fn a_robo_script_imports_records_minimizes_and_exports_its_minimal_path() {
    let env = env();
    let script = demo("flows/checkout.robo.json");
    let (bundle, minimal) =
        round_trip(&env, "robo", &script, &["--package", "com.example.shop"], 8);
    assert_eq!(minimal, [1, 5, 7, 8]);
    let original = robo::parse("checkout", &std::fs::read(&script).unwrap()).unwrap();
    let back = robo::parse(ROBO_FILE, &std::fs::read(bundle.join(ROBO_FILE)).unwrap()).unwrap();
    assert_eq!(actions(&back), at_path(&original, &minimal));
    let flow = maestro::parse(
        MAESTRO_FILE,
        &std::fs::read(bundle.join(MAESTRO_FILE)).unwrap(),
    )
    .unwrap();
    assert_eq!(keys(&actions(&flow)), keys(&at_path(&original, &minimal)));
    check_filmstrip(&bundle, &minimal);
}

#[test]
fn a_flow_that_does_not_crash_is_saved_as_passed_and_the_user_is_told() {
    let env = env();
    let flow = flow_file(
        &env,
        "browse.yaml",
        "appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    id: com.example.shop:id/product_card\n- back\n",
    );
    let out = env.whittle(&[
        "import",
        "maestro",
        flow.to_str().unwrap(),
        "--record",
        "--name",
        "browse",
    ]);
    assert_exit(&out, 2);
    assert!(stdout(&out).contains("without a crash"), "{}", stdout(&out));
    let id = env
        .session_names()
        .into_iter()
        .find(|n| n.ends_with("_browse"))
        .unwrap();
    let dir = env.session_dir(&id);
    assert_eq!(common::meta_status(&dir), "passed");
    assert!(!dir.join("crashes.jsonl").exists());
    // Recording again is allowed (still no crashes.jsonl); an import without --record
    // says how to run it.
    let out = env.whittle(&["import", "maestro", flow.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let summary = json_out(&out);
    assert_eq!(summary["steps"], 3);
    assert_eq!(summary["replayable"], 2);
    assert!(summary["recorded"].is_null());
}

#[test]
fn bad_input_is_refused_with_file_line_and_field_and_writes_nothing() {
    let env = env();
    let bad = flow_file(
        &env,
        "bad.yaml",
        "appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    idd: x\n",
    );
    let out = env.whittle(&["import", "maestro", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(
        err.contains("bad.yaml line 5, field commands[1].tapOn.idd"),
        "{err}"
    );
    let json = env.whittle(&[
        "import",
        "robo",
        bad.to_str().unwrap(),
        "--json",
        "--package",
        "x",
    ]);
    assert_eq!(json.status.code(), Some(3));
    assert_eq!(json_out(&json)["status"], "refused");
    let out = env.whittle(&[
        "import",
        "maestro",
        demo("flows/checkout.maestro.yaml").to_str().unwrap(),
        "--name",
        "../../outside",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("never a path"), "{}", stderr(&out));
    assert!(env.session_names().is_empty(), "{:?}", env.session_names());
}

#[test]
fn export_markdown_prints_a_ticket() {
    let env = env();
    let flow = demo("flows/checkout.maestro.yaml");
    let out = env.whittle(&[
        "import",
        "maestro",
        flow.to_str().unwrap(),
        "--record",
        "--json",
    ]);
    let session = json_out(&out)["session_id"].as_str().unwrap().to_string();
    let evidence = evidence_of(&json_out(&env.whittle(&["minimize", &session, "--json"])));
    let out = env.whittle(&["export", &evidence, "--markdown"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let md = stdout(&out);
    for words in [
        "### Crash: ",
        "**Steps to reproduce**",
        "1. Launch the app from a fresh start",
        "(original step 11)",
        "**Confidence:** high",
        "**App:** `com.example.shop` 2.3.0",
        "**Device:** ",
        "<details><summary>Maestro flow (maestro test)</summary>",
        "<details><summary>Stack trace</summary>",
    ] {
        assert!(md.contains(words), "{words:?} missing from\n{md}");
    }
    assert!(
        !md.contains("espresso"),
        "a removed detour's value is not in the ticket"
    );
}

/// Issue 26, case 2: a flow whose replay stops at an element that is not there never ran
/// to its end, so it is told as stopped (where and why, its own exit code) and the
/// session is never saved as passed.
#[test]
fn a_flow_whose_replay_stopped_is_told_as_stopped_never_as_passed() {
    let env = env();
    let flow = flow_file(
        &env,
        "lost.yaml",
        "appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    id: com.example.shop:id/no_such_button\n- back\n",
    );
    let out = env.whittle(&[
        "import",
        "maestro",
        flow.to_str().unwrap(),
        "--record",
        "--name",
        "lost",
    ]);
    assert_exit(&out, 6);
    let text = stdout(&out);
    assert!(
        text.contains("stopped at step 2: element not found"),
        "{text}"
    );
    assert!(
        !text.contains("passed") || text.contains("neither passed"),
        "{text}"
    );
    let id = env
        .session_names()
        .into_iter()
        .find(|n| n.ends_with("_lost"))
        .unwrap();
    let dir = env.session_dir(&id);
    assert_eq!(common::meta_status(&dir), "failed");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(
        meta["extra"]["import"]["stopped"],
        serde_json::json!({"step": 2, "reason": "element_not_found"})
    );
    // The same in --json: the typed end, not a status to read back.
    let again = env.whittle(&[
        "import",
        "maestro",
        flow.to_str().unwrap(),
        "--record",
        "--json",
    ]);
    assert_exit(&again, 6);
    let j = json_out(&again);
    assert_eq!(j["recorded"]["end"]["kind"], "stopped", "{j}");
    assert_eq!(j["recorded"]["end"]["reason"], "element_not_found", "{j}");
}

/// Issue 29, case 4: `import --record` checks the device and the app on it before it
/// writes the session (a refusal leaves the workspace as it was), and the recording's
/// evidence session exports like a run's; one without a result is refused by name.
#[test]
fn a_refused_record_writes_nothing_and_a_recording_exports() {
    let env = env();
    let flow = demo("flows/checkout.maestro.yaml");
    let flow = flow.to_str().unwrap();
    let out = env.whittle(&["import", "maestro", flow, "--record", "--device", "nope"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("device nope"), "{}", stderr(&out));
    let robo = demo("flows/checkout.robo.json");
    let out = env.whittle(&[
        "import",
        "robo",
        robo.to_str().unwrap(),
        "--package",
        "com.example.absent",
        "--record",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("com.example.absent is not installed"),
        "{}",
        stderr(&out)
    );
    assert!(env.session_names().is_empty(), "{:?}", env.session_names());
    let hidden: Vec<_> = std::fs::read_dir(&env.workspace)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "sessions")
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");

    let imported = env.whittle_json(&["import", "maestro", flow, "--record", "--json"]);
    let evidence = imported["recorded"]["evidence_session"].as_str().unwrap();
    let out_dir = env.dir.path().join("bundles");
    assert_exit(&env.export(evidence, &out_dir, "recording"), 0);
    let bundle = read_bundle(&out_dir.join("recording")).unwrap();
    let exported: Vec<u64> = bundle
        .replay
        .steps
        .iter()
        .map(|s| u64::from(s.index))
        .collect();
    assert_eq!(
        exported,
        [1, 2, 3, 4, 5, 6, 7, 8, 10, 11],
        "the recorded path, assertion left out"
    );
    assert!(out_dir.join("recording").join(MAESTRO_FILE).is_file());

    // An evidence session that holds no result (as a run cut off before it wrote one).
    let bare = env
        .session_dir(evidence)
        .with_file_name("2026-05-20_120000_minimize-bare");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::copy(
        env.session_dir(evidence).join("meta.json"),
        bare.join("meta.json"),
    )
    .unwrap();
    std::fs::write(bare.join("steps.jsonl"), "").unwrap();
    let out = env.export("2026-05-20_120000_minimize-bare", &out_dir, "bare");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has no result to export"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));
}

/// Issue 29, case 5: `--package` names the app; a process of it (as a crash names it) is
/// refused before anything runs, saying which package to pass.
#[test]
fn package_is_the_app_never_one_of_its_processes() {
    let env = env();
    let robo = demo("flows/checkout.robo.json");
    let out = env.whittle(&[
        "import",
        "robo",
        robo.to_str().unwrap(),
        "--package",
        "com.example.shop:sync",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "com.example.shop:sync is a process of com.example.shop, not an app: pass --package com.example.shop"
        ),
        "{}",
        stderr(&out)
    );
    assert!(env.session_names().is_empty(), "{:?}", env.session_names());
    let flow = demo("flows/checkout.maestro.yaml");
    let imported = env.whittle_json(&["import", "maestro", flow.to_str().unwrap(), "--json"]);
    let session = imported["session_id"].as_str().unwrap();
    let out = env.whittle(&[
        "minimize",
        session,
        "--package",
        "com.example.shop:sync",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let refusal = json_out(&out);
    assert_eq!(refusal["cause"]["kind"], "invalid_argument", "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .contains("pass --package com.example.shop"),
        "{refusal}"
    );
    assert_eq!(env.session_names().len(), 1, "no evidence session");
}

/// Issue 29: a flow's variables come from `-e` (over its `${X || "default"}`), and a value
/// the user marks `--private` is never stored, whatever field it is typed into.
#[test]
fn variables_from_the_command_line_and_values_marked_private() {
    let env = env();
    let flow = flow_file(
        &env,
        "vars.yaml",
        "appId: com.example.shop\nenv:\n  QUERY: ${QUERY || \"espresso\"}\n---\n- launchApp\n\
         - tapOn: \"Search\"\n- inputText: ${QUERY}\n- inputText: \"table 42 for Ada\"\n",
    );
    let file = flow.to_str().unwrap();
    let notes = |session: &str| -> Vec<Value> {
        let steps = std::fs::read_to_string(env.session_dir(session).join("steps.jsonl")).unwrap();
        steps
            .lines()
            .map(|l| {
                let step: Value = serde_json::from_str(l).unwrap();
                serde_json::from_str(step["notes"].as_str().unwrap()).unwrap()
            })
            .collect()
    };
    let plain = env.whittle_json(&["import", "maestro", file, "--json"]);
    let plain = notes(plain["session_id"].as_str().unwrap());
    assert_eq!(
        plain[2]["replay"]["input_value"], "espresso",
        "the flow's default"
    );
    assert_eq!(plain[3]["replay"]["input_value"], "table 42 for Ada");
    let given = env.whittle_json(&[
        "import",
        "maestro",
        file,
        "-e",
        "QUERY=grinder",
        "--private",
        "Ada",
        "--json",
    ]);
    let session = given["session_id"].as_str().unwrap().to_owned();
    let given = notes(&session);
    assert_eq!(given[2]["replay"]["input_value"], "grinder");
    assert_eq!(given[3]["replay"]["input_redacted"], true);
    let stored = std::fs::read_to_string(env.session_dir(&session).join("steps.jsonl")).unwrap();
    assert!(!stored.contains("Ada"), "{stored}");
    let bad = env.whittle(&["import", "maestro", file, "-e", "1X=y"]);
    assert_eq!(bad.status.code(), Some(3));
    assert!(
        stderr(&bad).contains("is not a variable name"),
        "{}",
        stderr(&bad)
    );
}
