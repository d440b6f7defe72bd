use super::*;
use crate::import::{ElementKey, ImportProblem, ImportedAction};

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
    ElementKey::Id(s.into())
}
fn text(s: &str) -> ElementKey {
    ElementKey::Text(s.into())
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
fn input_text_types_into_the_field_tapped_before_it() {
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
                element: Some(id("textInput")),
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
    // launchApp twice: both are the launch setup.
    let launches = keys
        .steps
        .iter()
        .filter(|s| s.action == ImportedAction::Launch)
        .count();
    assert_eq!(launches, 2);
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
                element: Some(text("Email")),
                value: Some("correct@mobile.dev".into()),
                private: false,
            },
            &ImportedAction::Tap {
                element: text("Password")
            },
            &ImportedAction::InputText {
                element: Some(text("Password")),
                value: Some("maestro".into()),
                private: false,
            },
            // `index: 1` picks the second "Login": tap_element cannot say that.
            &unsupported("tap with a index selector"),
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
            element: Some(id("org.wikipedia:id/search_container")),
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
            element: Some(id("search")),
            value: Some("red shoes".into()),
            private: false,
        }
    );
    assert_eq!(
        flow.steps[2].action,
        ImportedAction::InputText {
            element: Some(id("search")),
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
