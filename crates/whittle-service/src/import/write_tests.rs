use std::path::Path;

use whittle_core::import::FlowFormat;
use whittle_core::session::load_session;

use super::*;

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sessions")).unwrap();
    dir
}

fn flow(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const FLOW: &str = "appId: com.example.shop\nname: Checkout crash\n---\n- launchApp\n- tapOn:\n    id: com.example.shop:id/btn_search\n- inputText: espresso\n- back\n- assertVisible: Cart\n";

#[test]
fn a_flow_becomes_a_session_the_loader_reads() {
    let ws = workspace();
    let file = flow(ws.path(), "checkout.yaml", FLOW);
    let opts = ImportOptions {
        format: FlowFormat::Maestro,
        file,
        name: None,
        package: None,
        variables: Default::default(),
        private_values: Vec::new(),
    };
    let summary = import_flow(ws.path(), &opts).unwrap();
    assert!(
        summary.session_id.ends_with("_Checkout_crash"),
        "{}",
        summary.session_id
    );
    assert_eq!((summary.steps, summary.replayable), (5, 3));
    assert_eq!(summary.skipped.len(), 1);
    assert_eq!(
        summary.skipped[0].reason,
        whittle_core::plan::SkipReason::UnsupportedAction {
            action_type: "assert visible".into()
        },
        "{:?}",
        summary.skipped
    );
    let session = load_session(Path::new(&summary.session_dir)).unwrap();
    assert_eq!(session.meta.package.as_deref(), Some("com.example.shop"));
    assert_eq!(session.meta.extra["import"]["format"], "maestro");
    assert_eq!(session.meta.extra["import"]["file"], "checkout.yaml");
    assert!(session.crashes.is_empty());
    assert_eq!(session.steps.len(), 5);
    let tap: serde_json::Value = serde_json::from_str(&session.steps[1].notes).unwrap();
    assert_eq!(
        tap["replay"]["element_key"],
        "com.example.shop:id/btn_search"
    );
    assert_eq!(
        tap["replay"]["maestro"],
        serde_json::json!({}),
        "matched as Maestro does"
    );
    let notes: serde_json::Value = serde_json::from_str(&session.steps[2].notes).unwrap();
    assert_eq!(
        notes["replay"]["element_key"], "focused:",
        "typed where the focus is"
    );
    assert_eq!(notes["replay"]["input_value"], "espresso");
    assert_eq!(notes["import"]["line"], 7);
    // Only the session folder: no temporary folder left in the workspace.
    assert_eq!(entries(ws.path()), ["checkout.yaml", "sessions"]);
    // The same flow again gets its own folder.
    let again = import_flow(ws.path(), &opts).unwrap();
    assert_ne!(again.session_id, summary.session_id);
}

#[test]
fn robo_scripts_need_a_package_and_names_must_stay_in_the_workspace() {
    let ws = workspace();
    let file = flow(
        ws.path(),
        "s.json",
        r#"[{"eventType": "VIEW_CLICKED", "elementDescriptors": [{"resourceId": "com.x:id/go"}]}]"#,
    );
    let mut opts = ImportOptions {
        format: FlowFormat::Robo,
        file,
        name: None,
        package: None,
        variables: Default::default(),
        private_values: Vec::new(),
    };
    assert!(matches!(
        import_flow(ws.path(), &opts),
        Err(ImportFailure::NoPackage { .. })
    ));
    opts.package = Some("com.x".into());
    for bad in ["../escape", "a/b", "..", ""] {
        opts.name = Some(bad.into());
        assert!(
            matches!(
                import_flow(ws.path(), &opts),
                Err(ImportFailure::BadName(_))
            ),
            "{bad}"
        );
    }
    opts.name = Some("robo-run".into());
    let summary = import_flow(ws.path(), &opts).unwrap();
    assert!(summary.session_id.ends_with("_robo-run"));
    assert_eq!((summary.steps, summary.replayable), (2, 1));
}

#[test]
fn a_bad_file_writes_nothing() {
    let ws = workspace();
    let cases = [
        ("bad.yaml", "appId: com.x\n---\n- tapOn: [x\n"),
        ("unknown.yaml", "appId: com.x\n---\n- teleport: home\n"),
        ("conflict.yaml", "appId: com.y\n---\n- launchApp\n"),
    ];
    for (name, text) in cases {
        let opts = ImportOptions {
            format: FlowFormat::Maestro,
            file: flow(ws.path(), name, text),
            name: None,
            package: Some("com.x".into()),
            variables: Default::default(),
            private_values: Vec::new(),
        };
        let e = import_flow(ws.path(), &opts).unwrap_err();
        assert!(e.to_string().contains(name), "{e}");
    }
    let big = ws.path().join("big.yaml");
    std::fs::write(&big, vec![b'#'; whittle_core::import::MAX_FLOW_BYTES + 10]).unwrap();
    let opts = ImportOptions {
        format: FlowFormat::Maestro,
        file: big,
        name: None,
        package: None,
        variables: Default::default(),
        private_values: Vec::new(),
    };
    assert!(import_flow(ws.path(), &opts)
        .unwrap_err()
        .to_string()
        .contains("larger than"));
    assert!(entries(&ws.path().join("sessions")).is_empty());
    assert!(!entries(ws.path())
        .iter()
        .any(|n| n.starts_with(".whittle-import")));
    let missing = tempfile::tempdir().unwrap();
    assert!(matches!(
        import_flow(missing.path(), &opts),
        Err(ImportFailure::NoWorkspace(_))
    ));
}

#[test]
fn ids_are_stamped_safe_names() {
    assert_eq!(
        base_id("2026-01-02_030405", "My flow: login!"),
        "2026-01-02_030405_My_flow_login"
    );
    assert_eq!(
        base_id("2026-01-02_030405", "../.."),
        "2026-01-02_030405_imported"
    );
    assert!(base_id("2026-01-02_030405", &"x".repeat(300)).len() <= 124);
}
