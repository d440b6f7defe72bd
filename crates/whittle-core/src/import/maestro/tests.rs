use super::*;
use crate::import::{ElementKey, ImportProblem, ImportedAction};
use crate::plan::MaestroSelector;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/maestro/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn actions(flow: &ImportedFlow) -> Vec<&ImportedAction> {
    flow.steps.iter().map(|s| &s.action).collect()
}

fn id(s: &str) -> ElementKey {
    ElementKey::Maestro {
        by_id: true,
        pattern: s.into(),
        selector: MaestroSelector::default(),
    }
}
fn text(s: &str) -> ElementKey {
    ElementKey::Maestro {
        by_id: false,
        pattern: s.into(),
        selector: MaestroSelector::default(),
    }
}
fn unsupported(s: &str) -> ImportedAction {
    ImportedAction::Unsupported { what: s.into() }
}
fn back() -> ImportedAction {
    ImportedAction::PressButton {
        button: "BACK".into(),
    }
}

#[test]
fn input_text_types_into_the_focused_field() {
    let flow = parse(
        "inputText.yaml",
        &fixture("demo_app_commands_inputText.yaml"),
    )
    .unwrap();
    assert_eq!(flow.package.as_deref(), Some("com.example.example"));
    assert_eq!(
        actions(&flow),
        [
            &ImportedAction::Launch,
            &ImportedAction::Tap {
                element: text("Input Test")
            },
            &ImportedAction::Tap {
                element: id("textInput")
            },
            &ImportedAction::InputText {
                element: Some(ElementKey::Focused),
                value: Some("foo".into()),
                private: false,
            },
            &unsupported("assert visible"),
        ]
    );
    let lines: Vec<_> = flow.steps.iter().map(|s| s.line).collect();
    assert_eq!(lines, [Some(3), Some(5), Some(6), Some(8), Some(9)]);
}

#[test]
fn back_and_press_key_back_are_back_and_other_keys_are_their_button() {
    let flow = parse("back.yaml", &fixture("demo_app_commands_back.yaml")).unwrap();
    assert_eq!(flow.steps[3].action, back());
    let keys = parse("pressKey.yaml", &fixture("demo_app_commands_pressKey.yaml")).unwrap();
    let presses: Vec<_> = keys
        .steps
        .iter()
        .filter_map(|s| match &s.action {
            ImportedAction::PressButton { button } => Some(button.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(presses, ["HOME", "BACK"]);
    // launchApp twice: the first is the launch setup, the second a relaunch step.
    let launches: Vec<_> = keys
        .steps
        .iter()
        .filter(|s| {
            matches!(
                s.action,
                ImportedAction::Launch | ImportedAction::Relaunch { .. }
            )
        })
        .map(|s| &s.action)
        .collect();
    assert_eq!(
        launches,
        [
            &ImportedAction::Launch,
            &ImportedAction::Relaunch { stop_app: true }
        ]
    );
}

#[test]
fn a_form_flow_keeps_unreplayable_taps_with_their_reason() {
    let flow = parse("fill_form.yaml", &fixture("demo_app_fill_form.yaml")).unwrap();
    assert_eq!(
        actions(&flow),
        [
            &ImportedAction::Launch,
            &ImportedAction::Tap {
                element: text("Form Test")
            },
            &ImportedAction::Tap {
                element: text("Email")
            },
            &ImportedAction::InputText {
                element: Some(ElementKey::Focused),
                value: Some("correct@mobile.dev".into()),
                private: true,
            },
            &ImportedAction::Tap {
                element: text("Password")
            },
            &ImportedAction::InputText {
                element: Some(ElementKey::Focused),
                value: Some("maestro".into()),
                private: true,
            },
            // `index: 1`: the second "Login" from the top, as Maestro counts.
            &ImportedAction::Tap {
                element: ElementKey::Maestro {
                    by_id: false,
                    pattern: "Login".into(),
                    selector: MaestroSelector {
                        index: Some(1),
                        ..MaestroSelector::default()
                    }
                }
            },
            &unsupported("assert visible"),
        ]
    );
}

#[test]
fn optional_taps_are_kept_but_not_replayed_and_full_ids_stay_whole() {
    let flow = parse(
        "onboarding.yaml",
        &fixture("wikipedia_subflows_onboarding-android.yaml"),
    )
    .unwrap();
    assert_eq!(flow.steps[1].action, unsupported("optional tap"));
    assert_eq!(
        flow.steps[2].action,
        ImportedAction::Tap {
            element: id("org.wikipedia:id/fragment_onboarding_forward_button")
        }
    );
    assert_eq!(flow.steps.len(), 6);
}

#[test]
fn public_examples_all_import() {
    for name in [
        "demo_app_commands_launchApp.yaml",
        "nowinandroid_bookmarks.yaml",
        "demo_app_commands_tour.yaml",
        "demo_app_relatives.yaml",
        "wikipedia_android-advanced-flow.yaml",
    ] {
        let flow = parse(name, &fixture(name)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!flow.steps.is_empty(), "{name}");
    }
    let bookmarks = parse("b.yaml", &fixture("nowinandroid_bookmarks.yaml")).unwrap();
    assert_eq!(bookmarks.name.as_deref(), Some("Bookmarks"));
    assert_eq!(
        bookmarks.steps[1].action,
        ImportedAction::Tap {
            element: text("Headlines")
        }
    );
    // A value from a script is unknown, never guessed; other files are never read.
    let advanced = parse("a.yaml", &fixture("wikipedia_android-advanced-flow.yaml")).unwrap();
    assert_eq!(advanced.steps[0].action, unsupported("run another flow"));
    assert_eq!(advanced.steps[3].action, unsupported("run script"));
    assert_eq!(
        advanced.steps[4].action,
        ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: None,
            private: false,
        }
    );
}

#[test]
fn env_values_are_substituted() {
    let flow = parse(
        "env.yaml",
        b"appId: com.x\nenv:\n  QUERY: red shoes\n---\n- tapOn: {id: search}\n- inputText: ${QUERY}\n- inputText: ${MISSING}\n",
    )
    .unwrap();
    assert_eq!(
        flow.steps[1].action,
        ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: Some("red shoes".into()),
            private: false,
        }
    );
    assert_eq!(
        flow.steps[2].action,
        ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: None,
            private: false,
        }
    );
}

/// Flow text, the line and field the error must name, and words it must say.
type BadFlow = (
    &'static [u8],
    Option<usize>,
    Option<&'static str>,
    &'static str,
);

#[test]
fn errors_name_file_line_and_field() {
    let cases: &[BadFlow] = &[
        (
            b"appId: com.x\n---\n- launchApp\n- tapOn:\n    idd: x\n",
            Some(5),
            Some("commands[1].tapOn.idd"),
            "unknown selector key",
        ),
        (
            b"appId: com.x\n---\n- launchApp\n- fly: away\n",
            Some(4),
            Some("commands[1]"),
            "unknown command \"fly\"",
        ),
        (
            b"appId: com.x\n---\n- launchApp\n- jump\n",
            Some(4),
            Some("commands[1]"),
            "unknown command \"jump\"",
        ),
        (
            b"appId: com.x\n---\n- pressKey: Teleport\n",
            Some(3),
            Some("commands[0].pressKey"),
            "unknown key name",
        ),
        (
            b"name: x\n---\n- launchApp\n",
            Some(1),
            Some("appId"),
            "must name the app",
        ),
        (b"- launchApp\n", None, None, "found 1 section"),
        (
            b"appId: com.x\n---\n- tapOn: [a\n",
            Some(4),
            None,
            "not valid YAML",
        ),
        (
            b"appId: com.x\n---\n- {tapOn: a, back: null}\n",
            Some(3),
            Some("commands[0]"),
            "found 2 names",
        ),
        (b"appId: com.x\n---\n[]\n", Some(3), None, "no commands"),
        (
            b"appId: com.x\n---\n- inputText: {label: x}\n",
            Some(3),
            Some("commands[0].inputText"),
            "needs the text",
        ),
    ];
    for (text, line, field, words) in cases {
        let e = parse("flow.yaml", text).unwrap_err();
        assert_eq!(e.file, "flow.yaml");
        assert_eq!(e.line, *line, "{e}");
        assert_eq!(e.field.as_deref(), *field, "{e}");
        assert!(e.to_string().contains(words), "{e}");
    }
}

#[test]
fn too_large_or_not_text_is_refused_before_parsing() {
    let big = vec![b' '; crate::import::MAX_FLOW_BYTES + 1];
    assert!(matches!(
        parse("big.yaml", &big).unwrap_err().problem,
        ImportProblem::TooLarge { .. }
    ));
    let e = parse("bin.yaml", b"appId: x\n\xff\n").unwrap_err();
    assert_eq!((e.problem, e.line), (ImportProblem::NotUtf8, Some(2)));
}

#[test]
fn alias_bombs_and_deep_nesting_are_errors_not_hangs() {
    let mut bomb = String::from("appId: x\n---\n- a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..9 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("a{}", i - 1)
        };
        bomb.push_str(&format!(
            "- a{i}: &a{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    assert!(parse("bomb.yaml", bomb.as_bytes()).is_err());
    let deep = format!("appId: x\n---\n- tapOn: {}\n", "[".repeat(50_000));
    assert!(parse("deep.yaml", deep.as_bytes()).is_err());
}

#[test]
fn flows_as_testers_write_them_keep_every_command_whole() {
    let flow = parse_with(
        "notes.yaml",
        br#"appId: com.acme.notes
env:
  USER_ID: ${USER_ID || "test_user_1"}
---
- launchApp:
    clearState: true
- tapOn: "LOG IN.*"
- tapOn:
    id: ".*menu_delete_selected"
    enabled: true
- longPressOn: "Note 1"
- inputText: ${USER_ID}
- launchApp:
    stopApp: false
- launchApp:
    clearState: true
- tapOn:
    below: "Header"
    text: "Buy"
- tapOn: "(?=x)y"
- runFlow: subflows/login.yaml
"#,
        &BTreeMap::from([("UNUSED".to_owned(), "x".to_owned())]),
    )
    .unwrap();
    let pattern = |by_id, p: &str, selector| ElementKey::Maestro {
        by_id,
        pattern: p.into(),
        selector,
    };
    assert_eq!(
        actions(&flow),
        [
            &ImportedAction::Launch,
            &ImportedAction::Tap {
                element: text("LOG IN.*")
            },
            &ImportedAction::Tap {
                element: pattern(
                    true,
                    ".*menu_delete_selected",
                    MaestroSelector {
                        enabled: Some(true),
                        ..MaestroSelector::default()
                    }
                )
            },
            &ImportedAction::LongPress {
                element: text("Note 1")
            },
            &ImportedAction::InputText {
                element: Some(ElementKey::Focused),
                value: Some("test_user_1".into()),
                private: false,
            },
            &ImportedAction::Relaunch { stop_app: false },
            &unsupported("relaunch that clears the app's data"),
            &unsupported("tap with a below selector"),
            &unsupported("tap with a Java-only pattern"),
            &unsupported("run another flow"),
        ]
    );
    assert!(
        flow.notes
            .iter()
            .any(|n| n.contains("clears the app's data")),
        "{:?}",
        flow.notes
    );
    // A skipped step keeps its whole command for the person reading it.
    let step = flow.steps[7].to_step(8, "2026-12-04T00:00:00Z", FlowFormat::Maestro);
    assert!(
        step.action.contains("tapOn: {below: Header, text: Buy}"),
        "{}",
        step.action
    );
    let sub = flow.steps[9].to_step(10, "2026-12-04T00:00:00Z", FlowFormat::Maestro);
    assert!(sub.action.contains("subflows/login.yaml"), "{}", sub.action);
    // A value given on the command line wins over the flow's default.
    let given = parse_with(
        "notes.yaml",
        b"appId: com.x\nenv:\n  U: ${U || \"d\"}\n---\n- launchApp\n- inputText: ${U}\n",
        &BTreeMap::from([("U".to_owned(), "qa_7".to_owned())]),
    )
    .unwrap();
    assert_eq!(
        given.steps[1].action,
        ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: Some("qa_7".into()),
            private: false,
        }
    );
}

#[test]
fn a_web_flow_is_refused_with_its_reason() {
    let err = parse("web.yaml", b"url: https://example.com\n---\n- tapOn: Go\n").unwrap_err();
    assert_eq!(err.problem, ImportProblem::WebFlow);
    assert_eq!(err.line, Some(1));
    assert!(err.to_string().contains("web flow"), "{err}");
}
