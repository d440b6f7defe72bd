use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/robo/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn actions(flow: &ImportedFlow) -> Vec<ImportedAction> {
    flow.steps.iter().map(|s| s.action.clone()).collect()
}

fn id(s: &str) -> ElementKey {
    ElementKey::Id(s.into())
}

fn unsupported(s: &str) -> ImportedAction {
    ImportedAction::Unsupported { what: s.into() }
}

fn sign_in() -> Vec<ImportedAction> {
    vec![
        ImportedAction::Launch,
        ImportedAction::InputText {
            element: Some(id("my.app.package:id/username")),
            value: Some("user123".into()),
            private: false,
        },
        ImportedAction::InputText {
            element: Some(id("my.app.package:id/password")),
            value: Some("12345".into()),
            private: false,
        },
        ImportedAction::Tap {
            element: id("my.app.package:id/login"),
        },
    ]
}

#[test]
fn the_script_and_its_simple_form_import_alike() {
    let script = parse("s.json", &fixture("reference_sign_in_script.json")).unwrap();
    let simple = parse("a.json", &fixture("reference_sign_in_actions.json")).unwrap();
    assert_eq!(actions(&script), sign_in());
    assert_eq!(actions(&simple), sign_in());
    assert_eq!(script.package, None);
    let lines: Vec<_> = simple.steps.iter().map(|s| s.line).collect();
    assert_eq!(lines, [None, Some(3), Some(12), Some(21)]);
    assert_eq!(simple.steps[3].command, "VIEW_CLICKED");
}

#[test]
fn the_target_is_the_first_descriptor_and_ancestors_are_ignored() {
    let flow = parse("t.json", &fixture("reference_topeka_descriptors.json")).unwrap();
    assert_eq!(
        actions(&flow)[1..],
        [
            ImportedAction::InputText {
                element: Some(id("com.google.samples.apps.topeka:id/first_name")),
                value: Some("John".into()),
                private: false,
            },
            ImportedAction::Tap {
                element: id("com.google.samples.apps.topeka:id/done")
            }
        ]
    );
    let recorded = parse("g.json", &fixture("gist_rohitsurwase_recorded.json")).unwrap();
    assert_eq!(
        actions(&recorded)[1],
        ImportedAction::Tap {
            element: id("com.package.name:id/ivNext")
        }
    );
}

#[test]
fn comments_and_the_execution_header_are_read_past() {
    let flow = parse("c.json", &fixture("reference_comments.json")).unwrap();
    assert_eq!(flow.steps[1].line, Some(5));
    let header = parse("h.json", &fixture("reference_execution_header.json")).unwrap();
    assert_eq!(actions(&header)[1], unsupported("wait"));
    assert_eq!(
        header.notes,
        [crate::import::ImportNote::ExecutionOptions { line: 1 }]
    );
    assert_eq!(header.steps[1].line, Some(12));
}

#[test]
fn other_events_and_conditional_scripts_are_kept_unreplayed() {
    let two = parse("2.json", &fixture("reference_two_scripts.json")).unwrap();
    assert_eq!(
        actions(&two)[1..],
        [
            unsupported("disable_keyboard"),
            ImportedAction::PressButton {
                button: "BACK".into()
            }
        ]
    );
    let wait = parse("w.json", &fixture("reference_wait_back.json")).unwrap();
    assert_eq!(actions(&wait)[1], unsupported("wait"));
    let conditional = parse("c.json", &fixture("reference_conditional_and_shell.json")).unwrap();
    assert_eq!(
        actions(&conditional)[1..],
        [
            unsupported("adb_shell_command in a pre_crawl script"),
            unsupported("view_clicked when element_present"),
        ]
    );
}

#[test]
fn the_package_template_is_filled_when_the_package_is_known() {
    let text = br#"[{"eventType": "VIEW_CLICKED", "elementDescriptors": [{"resourceId": "__%APP_PACKAGE_NAME%__:id/go"}]}]"#;
    let flow = parse_for("p.json", text, Some("com.example.shop")).unwrap();
    assert_eq!(
        flow.steps[1].action,
        ImportedAction::Tap {
            element: id("com.example.shop:id/go")
        }
    );
}

#[test]
fn errors_name_file_line_and_field() {
    let unknown = b"[\n  {\n    \"eventType\": \"TELEPORT\"\n  }\n]\n";
    let e = parse("s.json", unknown).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert_eq!(e.field.as_deref(), Some("[0].eventType"), "{e}");
    assert!(e.to_string().contains("unknown variant `TELEPORT`"), "{e}");
    let bad_type = b"[{\"eventType\": \"VIEW_TEXT_CHANGED\",\n \"replacementText\": 5}]";
    let e = parse("s.json", bad_type).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (Some(2), Some("[0].replacementText")),
        "{e}"
    );
    let scripts = b"[{\"actions\": [\n{\"eventType\": \"VIEW_CLICKED\"},\n{\"eventType\": 7}]}]";
    let e = parse("s.json", scripts).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (Some(3), Some("[0].actions[1].eventType")),
        "{e}"
    );
    let syntax = b"[\n{\"eventType\": \"WAIT\",}\n]";
    let e = parse("s.json", syntax).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("not valid JSON"), "{e}");
    let e = parse("s.json", b"{\"x\": 1}").unwrap_err();
    assert!(e.to_string().contains("list of actions"), "{e}");
    let e = parse("s.json", b"[]").unwrap_err();
    assert_eq!(e.problem, ImportProblem::NoSteps);
    let deep = "[".repeat(10_000);
    assert!(parse("d.json", deep.as_bytes()).is_err());
}

/// A click whose descriptors put the target in a list: the item (`position`) is a
/// RecyclerView's child, `target` is inside it.
fn list_click(target: &str, item_position: i64) -> Vec<u8> {
    format!(
        r#"[{{"eventType": "VIEW_CLICKED", "elementDescriptors": [
            {target},
            {{"className": "android.widget.LinearLayout", "recyclerViewChildPosition": {item_position},
              "adapterViewChildPosition": -1, "groupViewChildPosition": {item_position},
              "resourceId": "com.x:id/row"}},
            {{"className": "androidx.recyclerview.widget.RecyclerView", "recyclerViewChildPosition": -1,
              "resourceId": "com.x:id/list"}}
        ]}}]"#
    )
    .into_bytes()
}

#[test]
fn a_list_item_known_only_by_its_position_is_kept_and_skipped() {
    let bare = r#"{"className": "android.widget.ImageView", "recyclerViewChildPosition": -1, "resourceId": "com.x:id/container", "text": "", "contentDescription": ""}"#;
    let second = parse("l.json", &list_click(bare, 2)).unwrap();
    let third = parse("l.json", &list_click(bare, 3)).unwrap();
    assert_eq!(
        second.steps[1].action,
        ImportedAction::Unlocatable {
            kind: ActionKind::Tap,
            element: Some(ElementKey::Id("com.x:id/container".into())),
            gap: LocatorGap::ListPosition {
                position: 2,
                list: "id/list".into()
            },
        }
    );
    assert_ne!(second.steps[1].action, third.steps[1].action);
    let stored = second.steps[1].to_step(2, "t", FlowFormat::Robo);
    assert!(
        stored.action.contains("list item 2") && stored.action.contains("of id/list"),
        "{}",
        stored.action
    );
    // Skipped because of the position, in words that say so (not "only taps can").
    let plan = crate::plan::build_plan(&[stored], &[2]).unwrap();
    let reason = match &plan.steps[0].disposition {
        crate::plan::Disposition::Skipped { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        reason,
        crate::plan::SkipReason::ListPosition {
            element: "com.x:id/container".into(),
            position: 2,
            list: "id/list".into()
        }
    );
    assert!(
        reason
            .to_string()
            .contains("position in a list (item 2 of id/list)"),
        "{reason}"
    );
    // What the item shows tells it apart: tapped by its text, not by the shared id.
    let shown = r#"{"className": "android.widget.TextView", "resourceId": "com.x:id/title", "text": "Red shoes"}"#;
    let flow = parse("l.json", &list_click(shown, 2)).unwrap();
    assert_eq!(
        flow.steps[1].action,
        ImportedAction::Tap {
            element: ElementKey::Text("Red shoes".into())
        }
    );
    // The item itself as the target, and an AdapterView's item.
    let item = br#"[{"eventType": "LIST_ITEM_CLICKED", "elementDescriptors": [
        {"className": "android.widget.TextView", "adapterViewChildPosition": 0, "resourceId": "android:id/text1"},
        {"className": "android.widget.ListView", "resourceId": "com.x:id/menu"}]}]"#;
    let flow = parse("i.json", item).unwrap();
    assert_eq!(
        flow.steps[1].action,
        ImportedAction::Unlocatable {
            kind: ActionKind::Tap,
            element: Some(ElementKey::Id("android:id/text1".into())),
            gap: LocatorGap::ListPosition {
                position: 0,
                list: "com.x:id/menu".into()
            },
        }
    );
    // Outside any list, child positions change nothing.
    let topeka = parse("t.json", &fixture("reference_topeka_descriptors.json")).unwrap();
    assert!(matches!(topeka.steps[2].action, ImportedAction::Tap { .. }));
}

/// One step in a line: what it does and to which element, or why it is skipped.
fn summary(step: &ImportedStep) -> String {
    match &step.action {
        ImportedAction::Launch => "launch".into(),
        ImportedAction::Tap { element } => format!("tap {}", element.to_key()),
        ImportedAction::LongPress { element } => format!("long press {}", element.to_key()),
        ImportedAction::Relaunch { stop_app } => format!("relaunch (stop: {stop_app})"),
        ImportedAction::InputText { element, value, .. } => format!(
            "type {:?} into {}{}",
            value.as_deref().unwrap_or("?"),
            element.as_ref().map_or("?".into(), ElementKey::to_key),
            storage(step)
        ),
        ImportedAction::PressButton { button } => format!("press {button}"),
        ImportedAction::Unsupported { what } => format!("skip: {what}"),
        ImportedAction::Unlocatable { .. } | ImportedAction::InputUnknown { .. } => {
            let words = step.to_step(2, "t", FlowFormat::Robo).action;
            format!(
                "skip: {}",
                words.split_once(": ").map_or(&*words, |(_, w)| w)
            )
        }
    }
}

/// How a typed value is stored: " (private)", " (withheld)", or "" when it is kept.
fn storage(step: &ImportedStep) -> &'static str {
    let notes = step.to_step(2, "t", FlowFormat::Robo).notes;
    if notes.contains("input_withheld") {
        " (withheld)"
    } else if notes.contains("input_redacted") {
        " (private)"
    } else {
        ""
    }
}

/// Every script of `tests/fixtures/robo/` (see `tests/fixtures/SOURCES.md`), step by
/// step: each command is replayed as Robo would perform it or skipped with its reason.
#[test]
fn every_fixture_imports_step_by_step() {
    let topeka = "com.google.samples.apps.topeka:id";
    let expected: Vec<(&str, Vec<String>)> = vec![
        ("bazz_movies_robo_script.json", {
            let app = "com.bazz.bazz_movies.debug:id";
            vec![
                "launch".into(),
                format!("tap {app}/tv_guest"),
                format!("tap {app}/rb_today"),
                "tap label:Movies".into(),
                "tap label:TV Series".into(),
                format!("skip: tap class android.widget.LinearLayout in list item 0 of {app}/rv_popular"),
                format!("tap {app}/btn_favorite"),
                format!("tap {app}/btn_watchlist"),
                // Two cards' `container`, told apart only by the lists they sit in.
                format!("skip: tap id {app}/container in cv_cast in rv_cast"),
                format!("skip: tap id {app}/container in cv_cast in rv_known_for"),
                "press BACK".into(),
                "press BACK".into(),
                "press BACK".into(),
                format!("tap {app}/navigation_my_favorite"),
                // The same tab under the same tab bar on two screens: not told apart.
                "tap label:TV Series".into(),
                format!("tap {app}/navigation_my_watchlist"),
                "tap label:TV Series".into(),
                format!("tap {app}/navigation_more"),
                format!("tap {app}/btn_country_picker"),
                format!("type \"japan\" into {app}/et_search"),
                format!("skip: tap class com.google.android.material.card.MaterialCardView in list item 0 of {app}/rv_country"),
                format!("tap {app}/navigation_home"),
                "tap label:Featured".into(),
            ]
        }),
        (
            "gist_rohitsurwase_recorded.json",
            vec!["launch".into(), "tap com.package.name:id/ivNext".into()],
        ),
        (
            "guarden_robo_script.json",
            vec![
                "launch".into(),
                "tap label:Başlayalım".into(),
                "type \"master1234\" into master_password_field (private)".into(),
                "type \"master1234\" into confirm_password_field (private)".into(),
                "tap text:Kasayı Oluştur".into(),
                "tap text:Daha Sonra".into(),
                "tap text:Web Sifresi Ekle".into(),
                "type \"Test Sitesi\" into ?".into(),
                // Nothing says what the field holds, and a run like this could be a secret.
                "type \"test.com\" into ? (withheld)".into(),
                "type \"test@user.com\" into ? (private)".into(),
                // Its only fact is the hint "Şifre" (Turkish: password).
                "type \"pass123\" into ? (private)".into(),
                "tap text:Kaydet".into(),
            ],
        ),
        (
            "reference_adapterview_child.json",
            vec!["launch".into(), "tap label:Avatar 6".into()],
        ),
        (
            "reference_assertions.json",
            vec![
                "launch".into(),
                "skip: assertion".into(),
                "skip: assertion".into(),
                "skip: assertion".into(),
            ],
        ),
        (
            "reference_click_variants.json",
            vec![
                "launch".into(),
                format!("tap {topeka}/done"),
                "skip: click on match 1 of seen text \"search\"".into(),
                "skip: soft_keyboard_click".into(),
                "skip: soft_keyboard_random_click".into(),
            ],
        ),
        (
            "reference_close_screen.json",
            vec![
                "launch".into(),
                "skip: view_clicked in a close_screen script".into(),
            ],
        ),
        (
            "reference_comments.json",
            vec!["launch".into(), format!("tap {topeka}/done")],
        ),
        (
            "reference_conditional_and_shell.json",
            vec![
                "launch".into(),
                "skip: adb_shell_command in a pre_crawl script".into(),
                "skip: view_clicked when element_present".into(),
            ],
        ),
        // Printed in the reference without the `]` that closes "actions".
        (
            "reference_conditional_popup_unclosed.json",
            vec!["error: line Some(33): not valid JSON (expected `,` or `]`)".into()],
        ),
        (
            "reference_execution_header.json",
            vec!["launch".into(), "skip: wait".into()],
        ),
        (
            "reference_gestures_and_ime.json",
            vec![
                "launch".into(),
                "long press label:Avatar 8".into(),
                "skip: one_point_gesture".into(),
                "skip: two_point_gesture".into(),
                "skip: pressed_editor_action".into(),
            ],
        ),
        (
            "reference_ignoring.json",
            vec![
                "launch".into(),
                "skip: all_elements_ignored when element_present".into(),
                "skip: element_ignored when element_present".into(),
            ],
        ),
        (
            "reference_recyclerview_child.json",
            vec![
                "launch".into(),
                format!("skip: tap id {topeka}/category_title in list item 8 of id/categories"),
            ],
        ),
        (
            "reference_repeated_runs.json",
            vec!["launch".into(), "press HOME".into()],
        ),
        (
            "reference_sign_in_actions.json",
            vec![
                "launch".into(),
                "type \"user123\" into my.app.package:id/username (withheld)".into(),
                "type \"12345\" into my.app.package:id/password (private)".into(),
                "tap my.app.package:id/login".into(),
            ],
        ),
        (
            "reference_sign_in_script.json",
            vec![
                "launch".into(),
                "type \"user123\" into my.app.package:id/username (withheld)".into(),
                "type \"12345\" into my.app.package:id/password (private)".into(),
                "tap my.app.package:id/login".into(),
            ],
        ),
        (
            "reference_topeka_descriptors.json",
            vec![
                "launch".into(),
                format!("type \"John\" into {topeka}/first_name"),
                format!("tap {topeka}/done"),
            ],
        ),
        (
            "reference_two_scripts.json",
            vec![
                "launch".into(),
                "skip: disable_keyboard".into(),
                "press BACK".into(),
            ],
        ),
        (
            "reference_wait_back.json",
            vec!["launch".into(), "skip: wait".into(), "press BACK".into()],
        ),
    ];
    let dir = format!("{}/../../tests/fixtures/robo", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let listed: Vec<&str> = expected.iter().map(|(f, _)| *f).collect();
    assert_eq!(files, listed, "every fixture has its expected steps");
    for (file, steps) in &expected {
        let got: Vec<String> = match parse(file, &fixture(file)) {
            Ok(flow) => flow.steps.iter().map(summary).collect(),
            Err(e) => vec![format!("error: line {:?}: {}", e.line, e.problem)],
        };
        assert_eq!(&got, steps, "{file}");
    }
    // The password typed by the sign-in script is never stored.
    let flow = parse("s.json", &fixture("reference_sign_in_actions.json")).unwrap();
    let stored = flow.steps[2].to_step(3, "t", flow.format);
    assert!(stored.notes.contains("input_redacted") && !stored.notes.contains("12345"));
}

/// Issue 44: a public script taps `container` inside `cv_cast` inside `rv_cast`, then
/// `container` inside `cv_cast` inside `rv_known_for`. Only the ancestors tell the two
/// cards apart, so neither becomes a tap on the id alone (the second would land on the
/// first card): both are kept and skipped, their reason naming the ancestors.
#[test]
fn two_cards_told_apart_by_their_ancestors_are_never_tapped_by_id_alone() {
    let flow = parse("b.json", &fixture("bazz_movies_robo_script.json")).unwrap();
    let steps: Vec<_> = flow
        .steps
        .iter()
        .zip(1..)
        .map(|(s, i)| s.to_step(i, "t", flow.format))
        .collect();
    let path: Vec<u32> = (1..=u32::try_from(steps.len()).unwrap()).collect();
    let plan = crate::plan::build_plan(&steps, &path).unwrap();
    let container = "com.bazz.bazz_movies.debug:id/container";
    assert!(
        !plan
            .replayable
            .iter()
            .any(|s| format!("{:?}", s.action).contains(container)),
        "{:?}",
        plan.replayable
    );
    let reasons: Vec<String> = [9, 10]
        .iter()
        .map(|&i| match &plan.steps[i - 1].disposition {
            crate::plan::Disposition::Skipped { reason } => reason.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        reasons,
        [
            format!("The script tells “{container}” apart from others with the same name only by its ancestors (cv_cast in rv_cast), which Whittle cannot replay yet."),
            format!("The script tells “{container}” apart from others with the same name only by its ancestors (cv_cast in rv_known_for), which Whittle cannot replay yet."),
        ]
    );
    // The same tab label under one tab bar on two screens stays a tap.
    assert!(matches!(
        &plan.steps[14].disposition,
        crate::plan::Disposition::Replayable
    ));
}
