use super::*;
use crate::import::{
    ElementKey, ImportNote, ImportProblem, ImportedAction, ImportedStep, LaunchOption,
};
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
        ImportedAction::InputUnknown {
            element: Some(ElementKey::Focused),
            variable: String::new(),
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
    // The variable with no value is named, with how to give it one.
    assert_eq!(
        flow.steps[2].action,
        ImportedAction::InputUnknown {
            element: Some(ElementKey::Focused),
            variable: "MISSING".into(),
        }
    );
    let stored = flow.steps[2].to_step(3, "t", flow.format);
    let plan = crate::plan::build_plan(&[stored], &[3]).unwrap();
    let reason = match &plan.steps[0].disposition {
        crate::plan::Disposition::Skipped { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        reason,
        crate::plan::SkipReason::UnknownInput {
            variable: "MISSING".into()
        }
    );
    assert!(reason.to_string().contains("-e MISSING="), "{reason}");
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
        flow.notes.iter().any(|n| matches!(
            n,
            ImportNote::LaunchOption {
                option: LaunchOption::ClearState,
                ..
            }
        )),
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

/// One step in a line: what it does and to which element, or why it is skipped.
fn summary(step: &ImportedStep) -> String {
    let element = |e: &ElementKey| match e {
        ElementKey::Maestro {
            by_id,
            pattern,
            selector,
        } => {
            let narrowing = serde_json::to_string(selector).unwrap_or_default();
            let narrowing = if narrowing == "{}" {
                String::new()
            } else {
                format!(" {narrowing}")
            };
            format!(
                "{} {pattern:?}{narrowing}",
                if *by_id { "id" } else { "text" }
            )
        }
        other => other.to_key(),
    };
    match &step.action {
        ImportedAction::Launch => "launch".into(),
        ImportedAction::Tap { element: e } => format!("tap {}", element(e)),
        ImportedAction::LongPress { element: e } => format!("long press {}", element(e)),
        ImportedAction::Relaunch { stop_app } => format!("relaunch stop={stop_app}"),
        ImportedAction::InputText {
            element: e,
            value,
            private,
        } => format!(
            "type {} into {}{}",
            value
                .as_deref()
                .map_or("(unknown)".to_owned(), |v| format!("{v:?}")),
            e.as_ref().map_or("?".into(), element),
            if *private { " (private)" } else { "" }
        ),
        ImportedAction::PressButton { button } => format!("press {button}"),
        ImportedAction::Unsupported { what } => format!("skip: {what}"),
        ImportedAction::InputUnknown { variable, .. } if variable.is_empty() => {
            "type (a script's result) into the focus".into()
        }
        ImportedAction::InputUnknown { variable, .. } => {
            format!("type ${{{variable}}} (no value) into the focus")
        }
        ImportedAction::Unlocatable { .. } => unreachable!("Maestro names no ancestors"),
    }
}

/// Every flow of `tests/fixtures/maestro/` (see `tests/fixtures/SOURCES.md`), step by step:
/// each command is replayed as Maestro would perform it or kept and skipped with its
/// reason. The web flow is refused whole.
#[test]
fn every_fixture_imports_step_by_step() {
    let expected: &[(&str, &[&str])] = &[
    ("demo_app_commands_back.yaml", &[
        "launch",
        "tap text \"Form Test\"",
        "skip: assert visible",
        "press BACK",
        "skip: assert visible",
    ]),
    ("demo_app_commands_eraseText.yaml", &[
        "launch",
        "tap text \"Form Test\"",
        "tap text \"Email\"",
        "type \"foo\" into focused:",
        "skip: assert visible",
        "skip: erase text",
        "skip: assert not visible",
        "type \"testing\" into focused:",
        "skip: assert visible",
        "skip: erase text",
        "skip: assert not visible",
        "skip: assert visible",
    ]),
    ("demo_app_commands_inputText.yaml", &[
        "launch",
        "tap text \"Input Test\"",
        "tap id \"textInput\"",
        "type \"foo\" into focused:",
        "skip: assert visible",
    ]),
    ("demo_app_commands_launchApp.yaml", &[
        "launch",
        "skip: assert visible",
        "skip: stop app",
        "relaunch stop=true",
        "skip: assert visible",
    ]),
    ("demo_app_commands_optional_tournee.yaml", &[
        "launch",
        "skip: assert visible",
        "skip: assert not visible",
        "skip: assert true",
        "skip: optional tap",
        "skip: double tap on",
        "skip: optional long press",
        "skip: copy text from",
        "skip: launch another app",
        "skip: optional tap",
        "skip: scroll until visible",
    ]),
    ("demo_app_commands_pressKey.yaml", &[
        "launch",
        "skip: assert visible",
        "press HOME",
        "skip: assert not visible",
        "relaunch stop=true",
        "skip: assert visible",
        "tap text \"Form Test\"",
        "skip: assert not visible",
        "press BACK",
        "skip: assert visible",
    ]),
    ("demo_app_commands_runFlow.yaml", &[
        "launch",
        "skip: run another flow",
        "skip: assert visible",
        "skip: run another flow",
    ]),
    ("demo_app_commands_tour.yaml", &[
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
    ]),
    ("demo_app_fill_form.yaml", &[
        "launch",
        "tap text \"Form Test\"",
        "tap text \"Email\"",
        "type \"correct@mobile.dev\" into focused: (private)",
        "tap text \"Password\"",
        "type \"maestro\" into focused: (private)",
        "tap text \"Login\" {\"index\":1}",
        "skip: assert visible",
    ]),
    ("demo_app_long_input_text.yaml", &[
        "launch",
        "tap text \"Form Test\"",
        "tap text \"Email\"",
        "type \"veryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongemail@mobile.dev\" into focused: (private)",
    ]),
    ("demo_app_relatives.yaml", &[
        "launch",
        "tap text \"Nesting Test\"",
        "skip: assert visible",
        "skip: assert visible",
        "skip: assert not visible",
    ]),
    ("demo_app_swipe.yaml", &[
        "launch",
        "tap text \"Swipe Test\"",
        "skip: swipe",
        "skip: swipe",
        "skip: swipe",
        "tap bounds:85%, 50%",
        "skip: assert visible",
    ]),
    ("maestro-test_015_element_relative_position.yaml", &[
        "skip: tap with an above selector",
        "skip: tap with a below selector",
        "skip: tap with a left of selector",
        "skip: tap with a right of selector",
        "skip: tap with an above selector",
        "skip: tap with an above selector",
        "skip: tap with a below selector",
        "skip: tap with a below selector",
    ]),
    ("maestro-test_021_launch_app_with_clear_state.yaml", &[
        "launch",
    ]),
    ("maestro-test_029_long_press_on_element.yaml", &[
        "long press text \".*button.*\"",
    ]),
    ("maestro-test_032_element_index.yaml", &[
        "tap text \"Item.*\" {\"index\":0}",
        "skip: tap with an index selector",
    ]),
    ("maestro-test_038_partial_id.yaml", &[
        "tap id \"keyboard_area\"",
        "tap id \".*keyboard_area\"",
    ]),
    ("maestro-test_040_escape_regex.yaml", &[
        "tap text \"\\\\+123456\"",
    ]),
    ("maestro-test_049_run_flow_conditionally.yaml", &[
        "skip: run another flow",
        "skip: assert visible",
        "skip: run another flow",
    ]),
    ("maestro-test_054_enabled.yaml", &[
        "skip: assert visible",
        "tap text \"Button\"",
        "skip: assert not visible",
        "skip: assert visible",
    ]),
    ("maestro-test_093_js_default_value.yaml", &[
        "launch",
    ]),
    ("maestro-test_095_launch_arguments.yaml", &[
        "launch",
    ]),
    ("maestro-test_114_child_of_selector.yaml", &[
        "skip: assert visible",
        "skip: assert not visible",
    ]),
    ("no-app_environment-variables.yaml", &[
        "skip: assert true",
    ]),
    ("nowinandroid_bookmarks.yaml", &[
        "launch",
        "tap text \"Headlines\"",
        "tap text \"Done\"",
        "tap text \"Bookmark\"",
        "tap text \"Saved\"",
        "tap text \"Unbookmark\"",
        "skip: assert visible",
    ]),
    ("recipes_square_pos_android_signup.yaml", &[
        "launch",
        "tap text \"Create account\"",
        "skip: optional tap",
        "type ${EMAIL} (no value) into the focus",
        "tap text \"Continue\"",
        "type ${PASSWORD} (no value) into the focus",
        "tap text \"Continue\"",
        "skip: tap with a right of selector",
        "tap text \"Continue\"",
        "tap text \"Confirm\"",
    ]),
    ("recipes_twitter_android_create_account.yaml", &[
        "launch",
        "tap text \"Create account\"",
        "tap text \"Skip for now\"",
        "type ${NAME} (no value) into the focus",
        "tap id \"com.twitter.android:id/phone_or_email_field\"",
        "tap text \"Use email instead\"",
        "type ${EMAIL} (no value) into the focus",
        "tap text \"Date of birth\"",
        "long press text \"2021\"",
        "tap text \"Next\"",
        "tap text \"Next\"",
        "tap text \"Sign up\"",
    ]),
    ("wikipedia_android-advanced-flow.yaml", &[
        "skip: run another flow",
        "tap id \"org.wikipedia:id/search_container\"",
        "skip: optional tap",
        "skip: run script",
        "type (a script's result) into the focus",
        "skip: assert visible",
        "skip: run another flow",
    ]),
    ("wikipedia_android-flow.yaml", &[
        "launch",
    ]),
    ("wikipedia_subflows_launch-clearstate-android.yaml", &[
        "launch",
        "skip: assert visible",
        "skip: assert visible",
    ]),
    ("wikipedia_subflows_onboarding-android.yaml", &[
        "launch",
        "skip: optional tap",
        "tap id \"org.wikipedia:id/fragment_onboarding_forward_button\"",
        "tap id \"org.wikipedia:id/fragment_onboarding_forward_button\"",
        "tap id \"org.wikipedia:id/fragment_onboarding_forward_button\"",
        "tap id \"org.wikipedia:id/fragment_onboarding_done_button\"",
    ]),
    ("wikipedia_wikipedia-android-advanced_auth_login.yml", &[
        "tap text \"More\"",
        "tap text \"LOG IN.*\"",
        "tap id \".*create_account_login_button\"",
        "skip: run script",
        "tap text \"Username\"",
        "type (a script's result) into the focus",
        "tap text \"Password\"",
        "type \"No provided\" into focused: (private)",
        "tap text \"LOG IN\"",
        "press BACK",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_auth_signup.yml", &[
        "tap text \"More\"",
        "tap text \"LOG IN.*\"",
        "skip: run script",
        "tap text \"Username\"",
        "type (a script's result) into the focus",
        "tap text \"Password\"",
        "type (a script's result) into the focus",
        "tap text \"Repeat password\"",
        "type (a script's result) into the focus",
        "tap text \"Email.*\"",
        "type (a script's result) into the focus",
        "press BACK",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_dashboard_copy-paste.yml", &[
        "tap text \"Explore\"",
        "skip: scroll until visible",
        "skip: copy text from",
        "tap text \"Explore\"",
        "tap text \"Search Wikipedia\"",
        "type (a script's result) into the focus",
        "press BACK",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_dashboard_feed.yml", &[
        "tap text \"Explore\"",
        "skip: scroll until visible",
        "tap text \"Today on Wikipedia.*\"",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_dashboard_saved.yml", &[
        "tap text \"Saved\"",
        "tap text \"Default list for your saved articles\"",
        "skip: assert visible",
        "skip: assert visible",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_dashboard_search.yml", &[
        "tap text \"Search Wikipedia\"",
        "type \"Sun\" into focused:",
        "skip: assert visible",
        "tap id \".*page_list_item_title\"",
        "tap id \".*page_save\"",
        "press BACK",
        "press BACK",
        "press BACK",
    ]),
    ("wikipedia_wikipedia-android-advanced_onboarding_add-language.yml", &[
        "tap text \"ADD OR EDIT.*\"",
        "tap text \"ADD LANGUAGE\"",
        "tap id \".*menu_search_language\"",
        "type \"Greek\" into focused:",
        "skip: assert visible",
        "tap text \"Ελληνικά\"",
        "tap text \"Navigate up\"",
    ]),
    ("wikipedia_wikipedia-android-advanced_onboarding_main.yml", &[
        "skip: run another flow",
        "skip: run another flow",
        "tap text \"Continue\"",
        "skip: assert visible",
        "tap text \"Continue\"",
        "skip: assert visible",
        "tap text \"Continue\"",
        "skip: assert visible",
        "tap text \"Get started\"",
    ]),
    ("wikipedia_wikipedia-android-advanced_onboarding_remove-language.yml", &[
        "tap text \"ADD OR EDIT.*\"",
        "tap text \"More options\"",
        "tap text \"Remove language\"",
        "tap id \".*wiki_language_checkbox\" {\"index\":1}",
        "tap id \".*menu_delete_selected\"",
        "tap text \"OK\"",
        "skip: assert not visible",
        "tap text \"Navigate up\"",
    ]),
    ("wikipedia_wikipedia-android-advanced_run-test.yml", &[
        "launch",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
        "skip: run another flow",
    ]),
    ];
    let dir = format!(
        "{}/../../tests/fixtures/maestro",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "recipes_web_xmas.yaml")
        .collect();
    names.sort();
    let listed: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, names, "every fixture has its expectation");
    for (name, steps) in expected {
        let flow = parse(name, &fixture(name)).unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<String> = flow.steps.iter().map(summary).collect();
        assert_eq!(got, *steps, "{name}");
    }
    let web = parse("web.yaml", &fixture("recipes_web_xmas.yaml")).unwrap_err();
    assert_eq!(web.problem, ImportProblem::WebFlow);
    // The app named through a variable with a default, and launch options as notes.
    let by_variable = parse(
        "093.yaml",
        &fixture("maestro-test_093_js_default_value.yaml"),
    )
    .unwrap();
    assert_eq!(by_variable.package.as_deref(), Some("com.example.default"));
    for (name, asked) in [
        (
            "maestro-test_021_launch_app_with_clear_state.yaml",
            LaunchOption::ClearState,
        ),
        (
            "maestro-test_095_launch_arguments.yaml",
            LaunchOption::Arguments,
        ),
    ] {
        let flow = parse(name, &fixture(name)).unwrap();
        assert!(
            flow.notes
                .iter()
                .any(|n| matches!(n, ImportNote::LaunchOption { option, .. } if *option == asked)),
            "{name}: {:?}",
            flow.notes
        );
    }
}
